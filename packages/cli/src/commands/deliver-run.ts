import { deliverEndedRun, type EndedRunDelivery, type ValidationLine } from "@baton/engine/delivery";
import { BatonError } from "@baton/engine/errors";
import { loadConfig, type BatonConfig } from "@baton/engine/config";
import { describeRepo } from "@baton/engine/git";
import { Redactor, secretsFromEnv } from "@baton/engine/redaction";
import type { RunState } from "@baton/protocol/core";
import type { CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { readRunState } from "../run-state.ts";
import { eventView } from "./run-view.ts";
import { openProjectStore } from "../project-store.ts";

/** Failures of a run's delivery alone: its work succeeded, so it may be delivered again. */
const DELIVERY_FAILURES = new Set(["merge_conflicted", "merge_refused", "not_fast_forward", "push_refused", "github_token_missing", "pull_request_failed"]);

/** What `baton merge` and `baton pr` know of the run they deliver. */
export type DeliverableRun = { number: number; branch: string; base: string; state: RunState; validation: ValidationLine[] };

/**
 * Delivers a run that has ended (`baton merge`, `baton pr`) by a new short run of the built-in
 * `deliver` workflow that names it. Refused (exit 2, nothing changed) for a run still running
 * or paused, one that failed (validation, or anything else but its delivery), one that was
 * cancelled, or one with no branch of its own. `how` is asked once the run is known good.
 */
export async function deliverRun(
  ctx: CliContext,
  ref: string,
  verb: "merged" | "delivered as a pull request",
  how: (config: BatonConfig, run: DeliverableRun) => EndedRunDelivery,
  json: boolean,
): Promise<{ result: Awaited<ReturnType<typeof deliverEndedRun>>; run: DeliverableRun }> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  await store.recoverIfAbandoned(run.id);
  const validation = new Map<string, ValidationLine>();
  const state = await readRunState(store, run.id, (event) => {
    if (event.type !== "validation.completed") return;
    const command = String(event.data["command"]);
    validation.set(command, { command, passed: event.data["passed"] === true, round: Number(event.data["round"] ?? 0) });
  });
  const label = `run ${run.number}`;
  if (state.status === "created" || state.status === "running" || state.status === "paused") {
    throw new BatonError("usage", `${label} is ${state.status}: only a run that has ended can be ${verb}`, { hint: state.status === "paused" ? `answer its gate first (baton approve ${run.number})` : `wait for it to end (baton events ${run.number} --follow)` });
  }
  if (state.status === "failed" && !DELIVERY_FAILURES.has(state.error?.code ?? "")) {
    const why = state.error?.code === "validation_failed" ? "failed validation" : `failed (${state.error?.code ?? "unknown"})`;
    throw new BatonError("usage", `${label} ${why}: its work is not delivered`, { hint: `look at it with baton show ${run.number}, fix it (baton resume ${run.number} for a workflow, or a new run), then deliver the run that passes` });
  }
  if (state.status === "cancelled") throw new BatonError("usage", `${label} was cancelled: its work is not delivered`, { hint: "start a new run, or deliver its branch by hand" });
  const workspace = state.workspace;
  if (workspace === undefined || workspace.kind !== "worktree" || workspace.branch === undefined) {
    throw new BatonError("usage", `${label} worked in place, with no branch of its own: there is nothing to deliver`, { hint: "its changes are already in your tree" });
  }
  if (workspace.base_branch === undefined) {
    throw new BatonError("usage", `${label} started from ${workspace.base ?? "a commit"}, not a branch: Baton does not know where to deliver it`, { hint: `merge ${workspace.branch} by hand (git merge ${workspace.branch})` });
  }
  const deliverable: DeliverableRun = { number: run.number, branch: workspace.branch, base: workspace.base_branch, state, validation: [...validation.values()] };
  const delivery = how(config, deliverable);
  const repo = await describeRepo(project.root);
  const writer = await store.createRun();
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, json));
  try {
    const result = await deliverEndedRun(writer, {
      original: { runId: run.id, number: run.number, task: state.task ?? "", dir: store.runDir(run.id), branch: workspace.branch, baseBranch: workspace.base_branch, root: project.root },
      delivery,
      repo,
      redactor: new Redactor(secretsFromEnv(ctx.env)),
      now: () => new Date(),
    });
    return { result, run: deliverable };
  } finally {
    unsubscribe();
  }
}
