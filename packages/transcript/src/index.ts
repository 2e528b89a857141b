// @baton/transcript: a run's transcript from its events and trace store, as Markdown or HTML.
export { renderTranscript, renderSummary, renderTranscriptAndSummary, renderViewTranscriptAndSummary, DEFAULT_SUMMARY_BYTES, STEP_SUMMARY_LIMIT_BYTES, type TranscriptFormat, type SummaryOptions } from "./render.ts";
export { MAX_TOOL_OUTPUT_BYTES, type TranscriptSource } from "./layout.ts";
export { foldRunView, runViewFold, type RunView, type RunViewFold } from "./run-model.ts";
export { escapeHtml, escapeMarkdownText } from "./safe-text.ts";
