// Live lines for a workflow run's own events: stages starting and ending, routes, checkpoints,
// the context, gates, waits, fan-outs and their branches. Each line is laid out as the plain
// run's lines are ("  " first); the live view puts the stage in front of it.
import type { Envelope } from "@baton/protocol";
import { type Data, firstLine, num, record, text } from "./event-data.ts";
import { formatDuration, formatTokens, type Tone } from "./style.ts";

/** One line of the live view and its colour (none: the terminal's own). */
export type ToneLine = [tone: Tone | undefined, line: string];

/** Longest question, message or summary shown: the whole of it is in the event. */
const MESSAGE_CHARS = 120;
/** Most items listed in a line (branches, files, context keys): the rest is counted. */
const LIST_ITEMS = 8;

/**
 * The lines of a workflow event, or undefined for a type that is not one. `run` is how the
 * run is named in the commands a line suggests (its number, else its id).
 */
export function workflowEventLines(event: Envelope, run: string): ToneLine[] | undefined {
  const data = event.data as Data;
  switch (event.type) {
    case "workflow.loaded": {
      const file = text(data["file"]);
      const stages = Array.isArray(data["nodes"]) ? data["nodes"].length : 0;
      return [["dim", `  workflow: ${text(data["name"])}${file === "" ? "" : ` (${file})`} · ${stages} ${stages === 1 ? "stage" : "stages"}`]];
    }
    case "stage.started":
      return [["bold", `  ▸ ${stageStartedWords(data)}`]];
    case "stage.completed":
      return [["green", `  ✓ ${[text(data["outcome"]) || "succeeded", ...stageFigures(data)].join(" · ")}`]];
    case "stage.failed": {
      const error = record(data["error"]);
      const retry = data["will_retry"] === true ? ["will retry"] : [];
      return [["red", `  ✗ ${[`failed (${text(error["code"]) || "?"}): ${firstLine(error["message"], MESSAGE_CHARS)}`, ...stageFigures(data), ...retry].join(" · ")}`]];
    }
    case "stage.retrying": {
      const delay = num(data["delay_ms"]);
      return [["yellow", `  ↻ attempt ${num(data["attempt"]) ?? "?"}/${num(data["max_attempts"]) ?? "?"}${delay === undefined ? "" : ` in ${formatDuration(delay)}`}`]];
    }
    case "route.selected":
      return [[undefined, `  → ${text(data["to"])}${routeReason(data)}`]];
    case "checkpoint.saved": {
      const commit = text(data["commit"]).slice(0, 12);
      return [["dim", `  ◆ checkpoint${commit === "" ? " (nothing changed)" : ` ${commit}`}`]];
    }
    case "context.updated":
      return [["dim", `  context: ${contextKeys(record(data["updates"]))}`]];
    case "approval.requested":
      return approvalRequestedLines(data, run);
    case "approval.resolved":
      return [[data["approved"] === false ? "yellow" : "green", `  ${approvalResolvedWords(data)}`]];
    case "wait.started": {
      const until = text(data["until"]);
      return [[undefined, `  ⏳ waiting ${formatDuration(num(data["duration_ms"]))}${until === "" ? "" : `, until ${until}`}`]];
    }
    case "parallel.started":
      return [[undefined, `  ⑂ ${fanOutWords(data)}`]];
    case "branch.started":
      return [[undefined, `  ⑂ branch ${text(data["branch"])} → ${text(data["target"])}`]];
    case "branch.completed": {
      const outcome = text(data["outcome"]);
      const head = text(data["head_sha"]).slice(0, 12);
      const error = record(data["error"]);
      const why = text(error["message"]) === "" ? "" : `: ${firstLine(error["message"], MESSAGE_CHARS)}`;
      return [[outcome === "succeeded" ? "green" : outcome === "failed" ? "red" : "yellow", `  ⑃ branch ${text(data["branch"])} ${outcome}${why}${head === "" ? "" : ` · head ${head}`}`]];
    }
    case "parallel.completed":
      return [[data["outcome"] === "failed" ? "red" : "green", `  ⑃ fan-out ${text(data["outcome"])}${branchCounts(data["results"])}`]];
    case "integration.completed":
      return [["green", `  ⤵ merged ${text(data["branch"])} · ${text(data["sha"]).slice(0, 12)}`]];
    case "integration.conflicted":
      return [["red", `  ✗ ${text(data["branch"])} conflicts with the run's branch: ${listed(Array.isArray(data["files"]) ? data["files"].map(text) : [])}`]];
    default:
      return undefined;
  }
}

/** `agent stage "Plan" · visit 2 · attempt 2/3 · claude (opus)`. */
function stageStartedWords(data: Data): string {
  // A stage with no label of its own carries its id as the label: the prefix shows it already.
  const label = data["label"] === data["stage"] ? "" : text(data["label"]);
  const visit = num(data["visit"]) ?? 1;
  const max = num(data["max_attempts"]) ?? 1;
  const agent = text(data["agent"]);
  const model = text(data["model"]);
  const parts = [`${text(data["handler"]) || "?"} stage${label === "" ? "" : ` "${label}"`}`];
  if (visit > 1) parts.push(`visit ${visit}`);
  if (max > 1) parts.push(`attempt ${num(data["attempt"]) ?? 1}/${max}`);
  if (agent !== "") parts.push(`${agent}${model === "" ? "" : ` (${model})`}`);
  return parts.join(" · ");
}

/** What a stage's end reports after its outcome: exit code, time, tokens, summary. */
function stageFigures(data: Data): string[] {
  const figures: string[] = [];
  const exit = num(data["exit_code"]);
  if (data["timed_out"] === true) figures.push("timed out");
  else if (exit !== undefined) figures.push(`exit ${exit}`);
  figures.push(formatDuration(num(data["duration_ms"])));
  const usage = record(data["usage"]);
  const input = num(usage["input_tokens"]);
  const output = num(usage["output_tokens"]);
  if (input !== undefined && output !== undefined && input + output > 0) figures.push(formatTokens(input, output));
  const summary = firstLine(data["summary"], MESSAGE_CHARS);
  if (summary !== "") figures.push(summary);
  return figures;
}

function routeReason(data: Data): string {
  switch (data["reason"]) {
    case "condition":
      return ` (if ${text(data["condition"])})`;
    case "preferred_label":
    case "gate":
      return ` (label "${text(data["label"])}")`;
    case "suggested_next":
      return " (suggested by the stage)";
    case "retry_target":
      return " (retry target)";
    default:
      return "";
  }
}

/** `plan_file, tests; removed draft`: the keys only, never the values (they may be long). */
function contextKeys(updates: Data): string {
  const entries = Object.entries(updates);
  const set = entries.filter(([, value]) => value !== null).map(([key]) => text(key));
  const removed = entries.filter(([, value]) => value === null).map(([key]) => text(key));
  return [set.length === 0 ? "" : listed(set), removed.length === 0 ? "" : `removed ${listed(removed)}`].filter(Boolean).join("; ");
}

function approvalRequestedLines(data: Data, run: string): ToneLine[] {
  const options = (Array.isArray(data["options"]) ? data["options"] : []).map(record);
  const labels = options.map((option) => (text(option["key"]) === "" ? text(option["label"]) : `${text(option["label"])} (${text(option["key"])})`));
  const freeform = data["freeform"] === true;
  const choices = [...(labels.length === 0 ? [] : [labels.join(" · ")]), ...(freeform ? ["free text"] : [])];
  const answers = labels.length === 0 ? [] : [`baton approve ${run}`, `baton reject ${run}`, `baton answer ${run} CHOICE`];
  if (freeform) answers.push(`baton answer ${run} TEXT`);
  if (answers.length === 0) answers.push(`baton approve ${run}`, `baton reject ${run}`);
  return [
    ["yellow", `  ? ${firstLine(data["question"], MESSAGE_CHARS) || `gate ${text(data["gate"])}`}`],
    ...(choices.length === 0 ? [] : [["yellow", `    options: ${choices.join(", or ")}`] as ToneLine]),
    ["yellow", `    answer: ${answers.join(" · ")}`],
  ];
}

/** `✓ approved: Approve · by alice via cli · "looks right"`. */
function approvalResolvedWords(data: Data): string {
  const choice = text(data["choice"]);
  const answer = choice !== "" ? choice : data["text"] === undefined ? "" : `"${firstLine(data["text"], MESSAGE_CHARS)}"`;
  const comment = firstLine(data["comment"], MESSAGE_CHARS);
  const head = data["approved"] === false ? "✗ rejected" : "✓ approved";
  return [`${head}${answer === "" ? "" : `: ${answer}`}`, `by ${text(data["by"]) || "?"} via ${text(data["via"]) || "?"}`, ...(comment === "" ? [] : [`"${comment}"`])].join(" · ");
}

/** `fan-out of 3 branches (wait_all, 2 at a time): b1 → lint, b2 → test, b3 → docs`. */
function fanOutWords(data: Data): string {
  const branches = (Array.isArray(data["branches"]) ? data["branches"] : []).map(record);
  const max = num(data["max_parallel"]);
  const how = [text(data["join_policy"]), max === undefined ? "" : `${max} at a time`].filter(Boolean).join(", ");
  const list = listed(branches.map((branch) => `${text(branch["branch"])} → ${text(branch["target"])}`));
  return `fan-out of ${branches.length} ${branches.length === 1 ? "branch" : "branches"}${how === "" ? "" : ` (${how})`}${list === "" ? "" : `: ${list}`}`;
}

/** `: 2 succeeded, 1 failed`, from a fan-out's results. */
function branchCounts(results: unknown): string {
  const counts = new Map<string, number>();
  for (const result of Array.isArray(results) ? results.map(record) : []) {
    const outcome = text(result["outcome"]) || "?";
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  }
  return counts.size === 0 ? "" : `: ${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join(", ")}`;
}

function listed(items: readonly string[]): string {
  return items.length <= LIST_ITEMS ? items.join(", ") : `${items.slice(0, LIST_ITEMS).join(", ")} and ${items.length - LIST_ITEMS} more`;
}
