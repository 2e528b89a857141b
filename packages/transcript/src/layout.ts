import { para, type Block, type Inline } from "./nodes.ts";
import { fmt, type RunView, type SectionView, type ToolCallView, type TurnItem, type TurnView, type ValidationView } from "./run-model.ts";
import { cutKey, cutMeasured, LayoutMemo, measured, type Measured } from "./layout-memo.ts";
import { cutText } from "./text-cut.ts";

/** The most of one tool call's output a transcript shows; the whole of it is in the trace store. */
export const MAX_TOOL_OUTPUT_BYTES = 8_192;

/** How much of each kind of text a layout keeps; the summary tightens these step by step. */
export type LayoutLimits = {
  outputBytes: number;
  outputShape: "head" | "head_tail";
  argumentBytes: number;
  thoughtBytes: number;
  /** Each message's prose; unlimited when absent. */
  proseBytes?: number;
};

export const FULL_LIMITS: LayoutLimits = { outputBytes: MAX_TOOL_OUTPUT_BYTES, outputShape: "head", argumentBytes: MAX_TOOL_OUTPUT_BYTES, thoughtBytes: 64 * 1024 };

/** What the layout reads besides the events. */
export type TranscriptSource = {
  /** A trace-store file's text (path relative to the run's folder), or undefined when it is not there. */
  readOutput(file: string): string | undefined;
  /** Redaction applied to every foreign text after it was joined (a secret split across chunks is whole again here). */
  redact(text: string): string;
  /** Where the run's folder is, as a reader finds it (e.g. `.baton/runs/run_…`), to say where full outputs are. */
  runDir?: string;
};

/** A transcript laid out: a head, entries that may be left out from the end, and a tail that never is. */
export type Layout = { head: Block[]; body: Block[][]; tail: Block[] };

export function layoutRun(view: RunView, source: TranscriptSource, limits: LayoutLimits, memo = new LayoutMemo({ keep: false })): Layout {
  const text = (value: string, bytes?: number) => {
    const redacted = source.redact(value);
    return bytes === undefined ? redacted : cutText(redacted, bytes, "head_tail").text;
  };
  const head: Block[] = [{ kind: "heading", level: 1, text: `Baton run ${view.number ?? ""}: ${text(firstLine(view.task ?? ""), 200)}` }];
  const facts: Inline[] = [{ strong: "Run:" }, ` ${view.runId}`];
  if (view.agent !== undefined) facts.push(" · ", { strong: "Agent:" }, ` ${text(view.agent)}${view.model === undefined ? "" : ` (${text(view.model)})`}`);
  if (view.workflow !== undefined) facts.push(" · ", { strong: "Workflow:" }, ` ${text(view.workflow)}`);
  head.push(para(...facts), para({ strong: "Task:" }, " ", text(view.task ?? "", limits.proseBytes)));

  const body: Block[][] = [];
  for (const section of view.sections) body.push(...sectionBlocks(section, source, limits, text, memo));

  const tail: Block[] = [{ kind: "heading", level: 2, text: "Outcome" }];
  if (view.outcome === undefined) tail.push(para("The run has not ended."));
  else tail.push(para({ strong: "Status:" }, ` ${view.outcome.status}`));
  const commits: Inline[][] = view.commits.map((c) => [{ strong: "Commit" }, ` ${c.sha.slice(0, 12)}${c.stage === undefined ? "" : ` (stage ${c.stage})`}: ${text(c.message, 500)}, ${c.files} file${c.files === 1 ? "" : "s"}`]);
  const items = [...(view.outcome?.detail ?? []).map((line): Inline[] => [text(line, 2_048)]), ...commits];
  if (items.length > 0) tail.push({ kind: "list", items });
  if (view.validations.length > 0) tail.push(...validationBlocks(view.validations, source, text));
  return { head, body, tail };
}

/** Validation results shown at most in the outcome: it is never left out, so it stays small. */
export const MAX_VALIDATIONS_SHOWN = 20;

/** The outcome's validation results: each command's run, passed or failed, and where its whole output is. */
function validationBlocks(validations: readonly ValidationView[], source: TranscriptSource, text: TextOf): Block[] {
  const shown = validations.slice(-MAX_VALIDATIONS_SHOWN);
  const items: Inline[][] = shown.map((v) => {
    const facts = [v.round === 0 ? "the task" : `fix round ${v.round}`, v.exitCode === undefined ? undefined : `exit code ${v.exitCode}`, v.timedOut === true ? "timed out" : undefined, v.durationMs === undefined ? undefined : seconds(v.durationMs)].filter((f) => f !== undefined);
    const where = v.outputFile === undefined ? "" : `; output: ${text(`${source.runDir}/${v.outputFile}`, 500)}`;
    return [{ strong: v.passed ? "Passed" : "Failed" }, ` ${text(v.command, 500)} (${facts.join(", ")})${where}`];
  });
  const left = validations.length - shown.length;
  const blocks: Block[] = [{ kind: "heading", level: 3, text: "Validation" }, { kind: "list", items }];
  if (left > 0) blocks.push(para(`${left} earlier validation run${left === 1 ? "" : "s"} not shown (each is a validation.completed event in the run's log).`));
  return blocks;
}

type TextOf = (value: string, bytes?: number) => string;

function sectionBlocks(section: SectionView, source: TranscriptSource, limits: LayoutLimits, text: TextOf, memo: LayoutMemo): Block[][] {
  const out: Block[][] = [];
  if (section.title !== undefined) out.push([{ kind: "heading", level: 2, text: text(section.title) }]);
  for (const entry of section.entries) {
    if (entry.kind === "turn") out.push(turnBlocks(entry.turn, source, limits, text, memo));
    else if (entry.kind === "note") out.push([para({ strong: "Note:" }, ` ${text(entry.text, 2_048)}`)]);
    else {
      const result: Block[] = [para({ strong: "Result:" }, ` ${text(entry.text, 2_048)}`)];
      if (entry.preview !== undefined || entry.outputFile !== undefined) result.push(outputDetails("Command output", entry.outputFile, entry.preview, source, limits));
      out.push(result);
    }
  }
  return out;
}

function turnBlocks(turn: TurnView, source: TranscriptSource, limits: LayoutLimits, text: TextOf, memo: LayoutMemo): Block[] {
  const blocks = [...memo.blocks(turn, "", () => turnHead(turn, text))];
  for (const item of turn.items) blocks.push(...itemBlocks(item, source, limits, text, memo));
  return blocks;
}

/** A turn's heading and facts: no limit shapes them. */
function turnHead(turn: TurnView, text: TextOf): Block[] {
  const blocks: Block[] = [{ kind: "heading", level: 3, text: `Turn ${turn.number}: ${turn.reason}` }];
  const facts: string[] = [];
  if (turn.inputTokens !== undefined || turn.outputTokens !== undefined) facts.push(`${fmt(turn.inputTokens)} tokens in, ${fmt(turn.outputTokens)} out`);
  if (turn.costUsd !== undefined) facts.push(`$${turn.costUsd.toFixed(4)}`);
  if (turn.stopReason !== undefined) facts.push(`stop: ${text(turn.stopReason, 200)}`);
  if (turn.durationMs !== undefined) facts.push(seconds(turn.durationMs));
  const parts: Inline[] = [];
  if (turn.costRank !== undefined) parts.push({ strong: `Costliest turn ${turn.costRank} of 3` }, facts.length > 0 ? " · " : "");
  if (facts.length > 0) parts.push(facts.join(" · "));
  if (parts.length > 0) blocks.push(para(...parts));
  return blocks;
}

/** An item's blocks, under a key that holds how each of its texts comes out of this layout's cuts. */
function itemBlocks(item: TurnItem, source: TranscriptSource, limits: LayoutLimits, text: TextOf, memo: LayoutMemo): Block[] {
  switch (item.kind) {
    case "prose": {
      const prose = memo.texts(item, () => measured(source.redact(item.text)));
      return memo.blocks(item, cutKey(prose, limits.proseBytes, "head_tail"), () => [para(cutMeasured(prose, limits.proseBytes, "head_tail").text)]);
    }
    case "thought": {
      if (limits.thoughtBytes <= 0) return [];
      const thought = memo.texts(item, () => measured(source.redact(item.text)));
      return memo.blocks(item, cutKey(thought, limits.thoughtBytes, "head_tail"), () => [{ kind: "details", summary: "Reasoning", children: [para(cutMeasured(thought, limits.thoughtBytes, "head_tail").text)] }]);
    }
    case "note":
      return memo.blocks(item, "", () => [para({ strong: "Note:" }, ` ${text(item.text, 2_048)}`)]);
    case "tool":
      return memo.blocks(item, toolKey(item.tool, source, limits, text, memo), () => [toolBlock(item.tool, source, limits, text, memo)]);
  }
}

/** A tool call's arguments and output, as its block shows them before they are cut. */
type ToolTexts = { args?: Measured; output?: Measured & { fromFile: boolean } };

function toolTexts(tool: ToolCallView, source: TranscriptSource, text: TextOf, memo: LayoutMemo): ToolTexts {
  return memo.texts(tool, () => {
    const texts: ToolTexts = {};
    if (tool.input !== undefined) texts.args = measured(text(JSON.stringify(tool.input, null, 2) ?? ""));
    if (tool.outputFile !== undefined || tool.preview !== undefined) {
      const whole = tool.outputFile === undefined ? undefined : source.readOutput(tool.outputFile);
      texts.output = { ...measured(text(whole ?? tool.preview ?? "")), fromFile: whole !== undefined };
    }
    return texts;
  });
}

/** How this layout's cuts leave a tool call's texts, and those of the calls it made. */
function toolKey(tool: ToolCallView, source: TranscriptSource, limits: LayoutLimits, text: TextOf, memo: LayoutMemo): string {
  const { args, output } = toolTexts(tool, source, text, memo);
  const argsKey = args === undefined || limits.argumentBytes <= 0 ? "-" : cutKey(args, limits.argumentBytes, limits.outputShape);
  const outputKey = output === undefined || limits.outputBytes <= 0 ? "-" : cutKey(output, limits.outputBytes, limits.outputShape);
  const children = tool.children.map((child) => toolKey(child, source, limits, text, memo));
  return `${argsKey}|${outputKey}${children.length === 0 ? "" : `(${children.join(",")})`}`;
}

function toolBlock(tool: ToolCallView, source: TranscriptSource, limits: LayoutLimits, text: TextOf, memo: LayoutMemo): Block {
  const facts = [tool.tool, tool.title === undefined ? undefined : text(tool.title, 300), tool.status ?? "did not finish", tool.durationMs === undefined ? undefined : `${fmt(tool.durationMs)} ms`, tool.exitCode === undefined ? undefined : `exit code ${tool.exitCode}`, tool.timedOut === true ? "timed out" : undefined];
  const { args, output } = toolTexts(tool, source, text, memo);
  const children: Block[] = [];
  if (args !== undefined && limits.argumentBytes > 0) {
    children.push(para({ strong: "Arguments" }), { kind: "pre", text: cutMeasured(args, limits.argumentBytes, limits.outputShape).text });
  }
  // A preview as long as the output, with no file, is the whole output (ADR 0039).
  const previewWhole = tool.outputFile === undefined && tool.preview !== undefined && tool.preview.length === tool.outputChars;
  if (limits.outputBytes > 0 && output !== undefined) children.push(...outputBlocks(output, tool.outputFile, source, limits, !output.fromFile && tool.preview !== undefined && !previewWhole));
  else if (tool.outputFile !== undefined) children.push(para(`Output: ${fmt(tool.outputChars)} characters, in ${where(source, tool.outputFile)}`));
  for (const child of tool.children) children.push(toolBlock(child, source, limits, text, memo));
  if (children.length === 0) children.push(para("No arguments or output recorded."));
  return { kind: "details", summary: `Tool: ${facts.filter((f) => f !== undefined).join(" · ")}`, children };
}

function outputDetails(summary: string, file: string | undefined, preview: string | undefined, source: TranscriptSource, limits: LayoutLimits): Block {
  const whole = file === undefined ? undefined : source.readOutput(file);
  const output = measured(source.redact(whole ?? preview ?? ""));
  return { kind: "details", summary, children: outputBlocks(output, file, source, limits, whole === undefined && preview !== undefined) };
}

/** An output cut to the layout's bound; `previewOnly` says the text is a preview and not the whole. */
function outputBlocks(output: Measured, file: string | undefined, source: TranscriptSource, limits: LayoutLimits, previewOnly: boolean): Block[] {
  const cut = cutMeasured(output, limits.outputBytes, limits.outputShape);
  const blocks: Block[] = [para({ strong: "Output" }), { kind: "pre", text: cut.text }];
  const place = file === undefined ? "" : `; the full output is in ${where(source, file)}`;
  if (cut.leftOutBytes > 0) blocks.push(para(`${fmt(cut.leftOutBytes)} bytes left out${place}`));
  else if (previewOnly) blocks.push(para(`Only the preview was available${place}`));
  return blocks;
}

function where(source: TranscriptSource, file: string): string {
  return source.runDir === undefined ? file : `${source.runDir}/${file}`;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

function seconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`;
}
