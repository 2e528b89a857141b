// @baton/engine/transcript: a run's transcript files, rendered by @baton/transcript from the run's log and trace store.
export { runTranscriptSource, writeRunTranscripts, SUMMARY_FILE, TRANSCRIPT_FILE } from "./run-transcripts.ts";
export { renderSummary, renderTranscript, DEFAULT_SUMMARY_BYTES, type TranscriptFormat } from "@baton/transcript";
