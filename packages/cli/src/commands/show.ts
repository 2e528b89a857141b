import type { RunState } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { readRunState } from "../run-state.ts";
import { deliveriesOf } from "./run-deliveries.ts";
import { applyReliability, initialReliability } from "../run-reliability.ts";
import { incidentsLine } from "../render/incidents-line.ts";
import { workflowShowLines } from "../render/stage-table.ts";
import { stoppedByWords } from "../render/outcome-words.ts";
import { formatCost, formatDuration, formatTokens, stylerFor } from "../render/style.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/**
 * Status, usage, cost, counts, errors and incidents (provider errors, retries, stalls,
 * loops, hand-back) of one run, folded from its events; for a workflow run also its origin
 * (a fork), the gate it waits at, its last checkpoint and every stage visit.
 */
export async function showCommand(ctx: CliContext, ref: string, options: { json?: boolean }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  // A run whose writer died ends as failed (interrupted) when a command next touches it.
  await store.recoverIfAbandoned(run.id);
  const reliability = initialReliability();
  let origin: unknown;
  // Where the run's work was delivered: by itself (--merge, a merge stage) and by later `baton merge` runs.
  const merges: Array<{ sha?: string; base: string; strategy?: string; number?: number; url?: string; pull_request?: number }> = [];
  const state = await readRunState(store, run.id, (event) => {
    applyReliability(reliability, event);
    if (event.type === "run.created") origin = event.data["origin"];
    if (event.type === "git.merged" && event.data["run"] === undefined) merges.push({ sha: String(event.data["sha"]), base: String(event.data["base"]), strategy: String(event.data["strategy"]) });
    if (event.type === "pull_request.created" && event.data["run"] === undefined) merges.push({ url: String(event.data["url"]), pull_request: Number(event.data["number"]), base: String(event.data["base"]) });
  });
  const deliveries = [...merges, ...(await deliveriesOf(store.runDir(run.id)))];
  if (options.json) {
    ctx.stdout.write(`${terminalJson({ ...state, reliability, origin, deliveries, events_file: store.eventsPath(run.id) })}\n`);
    return EXIT.succeeded;
  }
  const style = stylerFor(ctx.stdout);
  const lines = [
    `${style("bold", `run ${state.number ?? run.number}`)}  ${visibleText(state.run ?? run.id)}`,
    `status:    ${statusWords(state)}`,
    `task:      ${visibleText(state.task ?? "")}`,
    `agent:     ${visibleText(state.agent ?? "")}${state.model ? ` (${visibleText(state.model)})` : ""}`,
    `started:   ${visibleText(state.started_at ?? state.created_at ?? "-")}`,
    `duration:  ${formatDuration(state.duration_ms)}`,
    `usage:     ${formatTokens(state.usage.input_tokens, state.usage.output_tokens)}`,
    `cost:      ${formatCost(state.cost_usd)}`,
    `events:    ${state.counts.events} · turns ${state.counts.turns} · messages ${state.counts.messages} · tool calls ${state.counts.tool_calls} (${state.counts.tool_failures} failed) · permissions ${state.counts.permissions}`,
    `log:       ${visibleText(store.eventsPath(run.id))}`,
  ];
  const workspace = state.workspace;
  if (workspace !== undefined) {
    lines.push(
      workspace.kind === "worktree"
        ? `workspace: ${visibleText(workspace.path)}\nbranch:    ${visibleText(workspace.branch ?? "-")} (from ${visibleText(workspace.base ?? "?")} @ ${visibleText((workspace.base_sha ?? "").slice(0, 12))})`
        : `workspace: in place ${visibleText(workspace.path)}`,
    );
  }
  // A workflow run's branch moves at each checkpoint, merges of a fan-in included.
  const head = state.workflow.checkpoints.findLast((checkpoint) => checkpoint.commit !== undefined);
  if (head?.commit !== undefined) {
    lines.push(`commit:    ${visibleText(head.commit.slice(0, 12))} on ${visibleText(workspace?.branch ?? "-")} · the checkpoint of ${visibleText(`${head.stage}@${head.visit}`)}`);
  } else if (state.commit !== undefined) {
    const { sha, branch, files, message } = state.commit;
    lines.push(`commit:    ${visibleText(sha.slice(0, 12))} on ${visibleText(branch)} · ${files} ${files === 1 ? "file" : "files"} · ${visibleText(message)}`);
  } else if (workspace?.kind === "worktree" && (state.status === "succeeded" || state.status === "failed" || state.status === "cancelled")) {
    lines.push("commit:    none (nothing changed)");
  }
  for (const delivery of deliveries) {
    if (delivery.url !== undefined) {
      lines.push(`delivered: pull request #${delivery.pull_request ?? "?"} into ${visibleText(delivery.base)}: ${visibleText(delivery.url)}${delivery.number === undefined ? "" : ` by run ${delivery.number}`}`);
      continue;
    }
    lines.push(`delivered: ${visibleText((delivery.sha ?? "").slice(0, 12))} into ${visibleText(delivery.base)} (${visibleText(delivery.strategy ?? "")})${delivery.number === undefined ? "" : ` by run ${delivery.number}`}`);
  }
  const incidents = incidentsLine(reliability);
  if (incidents !== undefined) lines.push(style("yellow", `incidents: ${visibleText(incidents)}`));
  for (const warning of state.warnings) lines.push(style("yellow", `warning:   ${visibleText(warning)}`));
  lines.push(...workflowShowLines(state, origin, String(state.number ?? run.number)));
  ctx.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.succeeded;
}

/** `failed (code: message) · model provider: unreachable`, `stopped by the time limit`, `cancelled by human`. */
function statusWords(state: RunState): string {
  const error = state.error ? ` (${state.error.code}: ${state.error.message})` : "";
  const cancelled = state.cancelled_by ? ` by ${state.cancelled_by}` : "";
  const stoppedBy = state.status === "stopped" ? stoppedByWords(state.stopped_by, state.provider_error) : undefined;
  const provider = state.status === "failed" && state.provider_error !== undefined ? ` · model provider: ${state.provider_error}` : "";
  return visibleText(`${state.status}${stoppedBy === undefined ? "" : ` by ${stoppedBy}`}${error}${cancelled}${provider}`);
}
