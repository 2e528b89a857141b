import type { Envelope } from "@baton/protocol/core";
import { numberText } from "./number-text.ts";
import { FULL_LIMITS, layoutRun, type Layout, type LayoutLimits, type TranscriptSource } from "./layout.ts";
import { LayoutMemo } from "./layout-memo.ts";
import { finish, Renderer, type TranscriptFormat } from "./document.ts";
import { para, type Block } from "./nodes.ts";
import { foldRunView, type RunView } from "./run-model.ts";
import { byteLength } from "./text-cut.ts";

export type { TranscriptFormat } from "./document.ts";

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
  return finish(flatten(layout), new Renderer(format, { keep: false }), layout);
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
  const memo = new LayoutMemo({ keep: true });
  const renderer = new Renderer(options.format, { keep: true });
  const layout = layoutRun(view, source, FULL_LIMITS, memo);
  const transcript = finish(flatten(layout), renderer, layout);
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_BYTES;
  const tighter = () => summaryOfView(view, source, options, SUMMARY_LADDER.slice(1), memo, renderer);
  // The pointer only adds to the transcript: one already over the bound is laid out tighter at once.
  if (byteLength(transcript) > maxBytes) return { transcript, summary: tighter() };
  // The summary that fits is the transcript with its pointer, of the blocks already rendered.
  const first = flatten(withPointer(layout, pointerTo(options)));
  return { transcript, summary: renderer.documentBytes(first, layout) <= maxBytes ? finish(first, renderer, layout) : tighter() };
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
  return summaryOfView(foldRunView(events), source, options, SUMMARY_LADDER, new LayoutMemo({ keep: true }), new Renderer(options.format, { keep: true }));
}

function summaryOfView(view: RunView, source: TranscriptSource, options: SummaryOptions, ladder: readonly LayoutLimits[], memo: LayoutMemo, renderer: Renderer): string {
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_BYTES;
  const pointer = pointerTo(options);
  let layout: Layout | undefined;
  for (const limits of ladder) {
    layout = withPointer(layoutRun(view, source, limits, memo), pointer);
    const blocks = flatten(layout);
    // Measured from its blocks' sizes: only the layout that fits is joined into a document.
    if (renderer.documentBytes(blocks, layout) <= maxBytes) return finish(blocks, renderer, layout);
  }
  return leaveOutEntries(withPointer(layout ?? layoutRun(view, source, FULL_LIMITS, memo), pointer), renderer, maxBytes);
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
function leaveOutEntries(layout: Layout, renderer: Renderer, maxBytes: number): string {
  const sizeOf = (blocks: Block[]) => renderer.joinedBytes(blocks) + 2;
  const fixed = renderer.documentBytes([...layout.head, para("x".repeat(240)), ...layout.tail], layout);
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
  const rendered = finish([...layout.head, ...kept, note, ...layout.tail], renderer, layout);
  // The head and tail are bounded (the task and each outcome line are cut), so this holds unless maxBytes is tiny.
  return byteLength(rendered) <= maxBytes ? rendered : finish([...layout.head.slice(0, 1), note], renderer, layout);
}

function flatten(layout: Layout): Block[] {
  return [...layout.head, ...layout.body.flat(), ...layout.tail];
}
