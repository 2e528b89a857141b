// What `baton show` adds for a workflow run: where it came from (a fork's origin), the stage
// visits as a table, the gate it waits at and its last checkpoint, from the folded log alone.
import type { CheckpointState, RunState, StageVisitState } from "@baton/protocol/core";
import { type Data, num, record, text } from "./event-data.ts";
import { formatDuration } from "./style.ts";
import { visibleText } from "./terminal-text.ts";

/**
 * The workflow lines of `baton show`, after the run's own; none for a run that is not a
 * workflow run. `origin`: `run.created.origin` of a fork. `run`: how commands name the run.
 */
export function workflowShowLines(state: RunState, origin: unknown, run: string): string[] {
  const workflow = state.workflow;
  if (workflow.name === undefined) return [];
  const lines = [`workflow:  ${visibleText(workflow.name)} · ${workflow.nodes.length} stages`];
  if (origin !== undefined) lines.push(`forked:    ${originWords(record(origin))}`);
  const gate = workflow.gate;
  if (gate !== undefined) {
    const options = gate.options.map((option) => (option.key === undefined ? option.label : `${option.label} (${option.key})`));
    if (gate.freeform) options.push("free text");
    const answer = gate.options.length === 0 ? `baton answer ${run} TEXT` : `baton approve ${run} · baton reject ${run} · baton answer ${run} CHOICE`;
    lines.push(visibleText(`gate:      ${gate.gate} waits: "${gate.question}"${options.length === 0 ? "" : ` · ${options.join(", ")}`} · ${answer}`));
  }
  const checkpoint = workflow.checkpoints.at(-1);
  if (checkpoint !== undefined) {
    const commit = checkpoint.commit === undefined ? "" : ` · ${checkpoint.commit.slice(0, 12)}`;
    lines.push(visibleText(`checkpoint: ${checkpoint.stage}@${checkpoint.visit}${commit} · ${checkpoint.next === undefined ? "at the exit" : `next ${checkpoint.next}`}`));
  }
  if (workflow.stages.length > 0) lines.push("", "STAGES", ...stageTable(workflow.stages, workflow.checkpoints));
  return lines;
}

/** `run 1 at build@1 (0123456789ab)`. */
function originWords(origin: Data): string {
  const commit = text(origin["commit"]).slice(0, 12);
  return `run ${num(origin["number"]) ?? text(origin["run"])} at ${text(origin["stage"])}@${num(origin["visit"]) ?? "?"}${commit === "" ? "" : ` (${commit})`}`;
}

const HEADER = ["STAGE", "VISIT", "ATTEMPT", "OUTCOME", "DURATION", "USAGE", "COMMIT"];

/** One row per attempt of each stage visit, in the order they started; a visit's commit is its checkpoint's when it made none itself (a fan-in's merge). */
function stageTable(stages: readonly StageVisitState[], checkpoints: readonly CheckpointState[]): string[] {
  const commitOf = (visit: StageVisitState) => visit.commit ?? (visit.status === "running" || visit.branch !== undefined ? undefined : checkpoints.find((c) => c.stage === visit.stage && c.visit === visit.visit)?.commit);
  const rows = stages.map((visit, i) => [
    visibleText(visit.branch === undefined ? visit.stage : `${visit.stage}/${visit.branch}`),
    String(visit.visit),
    String(visit.attempt),
    visibleText(visit.status === "failed" && visit.error !== undefined ? `failed (${visit.error.code})` : visit.status),
    visit.status === "running" ? "-" : formatDuration(visit.duration_ms),
    visit.usage === undefined || visit.usage.input_tokens + visit.usage.output_tokens === 0 ? "-" : `${visit.usage.input_tokens.toLocaleString("en-US")} in / ${visit.usage.output_tokens.toLocaleString("en-US")} out`,
    visibleText((isLastAttempt(stages, i) ? commitOf(visit) : visit.commit)?.slice(0, 12) ?? "-"),
  ]);
  const widths = HEADER.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [HEADER, ...rows].map((row) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")}`.trimEnd());
}

/** Whether no later attempt of the same visit follows the i-th. */
function isLastAttempt(stages: readonly StageVisitState[], i: number): boolean {
  const visit = stages[i]!;
  return !stages.slice(i + 1).some((other) => other.stage === visit.stage && other.visit === visit.visit && other.branch === visit.branch);
}
