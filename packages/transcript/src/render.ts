import type { Envelope } from "@baton/protocol/core";
import { numberText } from "./number-text.ts";
import { FULL_LIMITS, layoutRun, type Layout, type LayoutLimits, type TranscriptSource } from "./layout.ts";
import { blockToHtml, blockToMarkdown, blocksToHtml, blocksToMarkdown, HTML_BETWEEN_BLOCKS, MARKDOWN_BETWEEN_BLOCKS, para, type Block } from "./nodes.ts";
import { foldRunView, type RunView } from "./run-model.ts";
import { escapeHtml } from "./safe-text.ts";
import { byteLength } from "./text-cut.ts";

export type TranscriptFormat = "md" | "html";

/** GitHub's cap on one job's step summary (1 MiB); a summary must stay under it. */
export const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024;
/** What a bounded summary aims at by default: under the cap, with room for what a job adds. */
export const DEFAULT_SUMMARY_BYTES = STEP_SUMMARY_LIMIT_BYTES - 16 * 1024;

/**
 * Ever tighter limits for a summary that does not fit: tool blocks shrink to their head and
 * tail, then to their summary line; only then is prose abbreviated, message by message.
 */
const SUMMARY_LADDER: readonly LayoutLimits[] = [
  FULL_LIMITS,
  { outputBytes: 2_048, outputShape: "head_tail", argumentBytes: 1_024, thoughtBytes: 2_048 },
  { outputBytes: 512, outputShape: "head_tail", argumentBytes: 256, thoughtBytes: 512 },
  { outputBytes: 0, outputShape: "head_tail", argumentBytes: 0, thoughtBytes: 0 },
  { outputBytes: 0, outputShape: "head_tail", argumentBytes: 0, thoughtBytes: 0, proseBytes: 4_096 },
  { outputBytes: 0, outputShape: "head_tail", argumentBytes: 0, thoughtBytes: 0, proseBytes: 1_024 },
  { outputBytes: 0, outputShape: "head_tail", argumentBytes: 0, thoughtBytes: 0, proseBytes: 256 },
];

/**
 * The complete transcript of a run: every turn, message and tool call (each tool's output cut
 * at {@link MAX_TOOL_OUTPUT_BYTES}, the rest named in the trace store).
 *
 * @example
 * const md = renderTranscript(events, { readOutput, redact: (t) => redactor.redactText(t) }, "md");
 */
export function renderTranscript(events: Iterable<Envelope>, source: TranscriptSource, format: TranscriptFormat): string {
  const layout = layoutRun(foldRunView(events), source, FULL_LIMITS);
  return finish(flatten(layout), format, layout);
}

/**
 * Both files a run leaves, folded once: the complete transcript, and the summary (the same
 * text with its pointer when that fits, else laid out tighter by {@link renderSummary}).
 */
export function renderTranscriptAndSummary(events: Iterable<Envelope>, source: TranscriptSource, options: SummaryOptions): { transcript: string; summary: string } {
  return renderViewTranscriptAndSummary(foldRunView(events), source, options);
}

/** {@link renderTranscriptAndSummary} of a run already folded (see `runViewFold`). */
export function renderViewTranscriptAndSummary(view: RunView, source: TranscriptSource, options: SummaryOptions): { transcript: string; summary: string } {
  const { format } = options;
  const layout = layoutRun(view, source, FULL_LIMITS);
  // The summary that fits is the transcript with its pointer: each block is rendered once, for both.
  const head = rendered(layout.head, format);
  const rest = rendered([...layout.body.flat(), ...layout.tail], format);
  const transcript = document([...head, ...rest], format, layout);
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_BYTES;
  const tighter = () => summaryOfView(view, source, options, SUMMARY_LADDER.slice(1));
  // The pointer only adds to the transcript: one already over the bound is laid out tighter at once.
  if (byteLength(transcript) > maxBytes) return { transcript, summary: tighter() };
  const first = document([...head, ...rendered(pointerTo(options), format), ...rest], format, layout);
  return { transcript, summary: byteLength(first) <= maxBytes ? first : tighter() };
}

export type SummaryOptions = {
  format: TranscriptFormat;
  /** The most bytes the summary may take (default {@link DEFAULT_SUMMARY_BYTES}). */
  maxBytes?: number;
  /** Where the complete transcript is, named at the summary's top. */
  completeTranscript?: string;
};

/**
 * A run's transcript bounded to `maxBytes`, whatever the run: assistant prose is kept first,
 * then the head and tail of tool blocks; if prose alone is too long, each message is
 * abbreviated, and at the very last the latest entries are left out (the outcome never is).
 */
export function renderSummary(events: Iterable<Envelope>, source: TranscriptSource, options: SummaryOptions): string {
  return summaryOfView(foldRunView(events), source, options, SUMMARY_LADDER);
}

function summaryOfView(view: RunView, source: TranscriptSource, options: SummaryOptions, ladder: readonly LayoutLimits[]): string {
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_BYTES;
  const pointer = pointerTo(options);
  let layout: Layout | undefined;
  for (const limits of ladder) {
    layout = withPointer(layoutRun(view, source, limits), pointer);
    const rendered = finish(flatten(layout), options.format, layout);
    if (byteLength(rendered) <= maxBytes) return rendered;
  }
  return leaveOutEntries(withPointer(layout ?? layoutRun(view, source, FULL_LIMITS), pointer), options.format, maxBytes);
}

/** The summary's line naming where the complete transcript is, if it is given. */
function pointerTo(options: SummaryOptions): Block[] {
  return options.completeTranscript === undefined ? [] : [para({ strong: "Complete transcript:" }, ` ${options.completeTranscript}`)];
}

function withPointer(layout: Layout, pointer: Block[]): Layout {
  return { ...layout, head: [...layout.head, ...pointer] };
}

/**
 * The tightest layout with entries from the end left out until it fits (one line says how
 * many). The entry that does not fit whole is cut within, as a last resort: its first parts
 * (its heading, then its prose and tool blocks in order) as far as they fit, so one turn larger
 * than the bound still shows its beginning.
 */
function leaveOutEntries(layout: Layout, format: TranscriptFormat, maxBytes: number): string {
  const sizeOf = (blocks: Block[]) => byteLength(format === "md" ? blocksToMarkdown(blocks) : blocksToHtml(blocks)) + 2;
  const fixed = byteLength(finish([...layout.head, para("x".repeat(240)), ...layout.tail], format, layout));
  let used = fixed;
  const kept: Block[] = [];
  let count = 0;
  let partial: { kept: number; of: number } | undefined;
  for (const entry of layout.body) {
    const size = sizeOf(entry);
    if (used + size <= maxBytes) {
      used += size;
      kept.push(...entry);
      count += 1;
      continue;
    }
    let parts = 0;
    for (const block of entry) {
      const blockSize = sizeOf([block]);
      if (used + blockSize > maxBytes) break;
      used += blockSize;
      kept.push(block);
      parts += 1;
    }
    if (parts > 0) partial = { kept: parts, of: entry.length };
    break;
  }
  const total = numberText(layout.body.length);
  const after = layout.body.length - count - (partial === undefined ? 0 : 1);
  const what =
    partial === undefined
      ? `the last ${numberText(layout.body.length - count)} of ${total} entries`
      : `the rest of entry ${numberText(count + 1)} (${numberText(partial.of - partial.kept)} of its ${numberText(partial.of)} parts)${after > 0 ? ` and the ${numberText(after)} entries after it, of ${total}` : ""}`;
  const note = para({ strong: "Left out:" }, ` ${what}, to stay under ${numberText(maxBytes)} bytes.`);
  const rendered = finish([...layout.head, ...kept, note, ...layout.tail], format, layout);
  // The head and tail are bounded (the task and each outcome line are cut), so this holds unless maxBytes is tiny.
  return byteLength(rendered) <= maxBytes ? rendered : finish([...layout.head.slice(0, 1), note], format, layout);
}

function flatten(layout: Layout): Block[] {
  return [...layout.head, ...layout.body.flat(), ...layout.tail];
}

function finish(blocks: Block[], format: TranscriptFormat, layout: Layout): string {
  return document(rendered(blocks, format), format, layout);
}

/** Each block on its own, in `format`. */
function rendered(blocks: readonly Block[], format: TranscriptFormat): string[] {
  return blocks.map(format === "md" ? blockToMarkdown : blockToHtml);
}

/** The document of blocks already rendered: as {@link blocksToMarkdown} or {@link blocksToHtml} would join them. */
function document(blocks: readonly string[], format: TranscriptFormat, layout: Layout): string {
  if (format === "md") return `${blocks.join(MARKDOWN_BETWEEN_BLOCKS)}\n`;
  const title = layout.head[0]?.kind === "heading" ? layout.head[0].text : "Baton run";
  return htmlDocument(title, blocks.join(HTML_BETWEEN_BLOCKS));
}

/** A standalone page that loads nothing: its policy forbids every fetch, script and frame. */
function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
pre { background: #f6f8fa; padding: .75rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
details { border: 1px solid #d0d7de; border-radius: 6px; padding: .25rem .75rem; margin: .5rem 0; }
summary { cursor: pointer; font-family: ui-monospace, monospace; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
