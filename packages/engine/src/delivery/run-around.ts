import { definedFields } from "@baton/protocol/core";
import type { Redactor } from "../redaction/redactor.ts";
import type { RunSink } from "../run/run-sink.ts";
import { captureArtifacts } from "../artifacts/capture-artifacts.ts";
import { runSetup, type SetupFailure } from "../setup/run-setup.ts";
import { TraceStore } from "../trace/trace-store.ts";
import { commitSubject } from "../workspace/commit-workspace.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import { validationFailedError, type ValidationSpec, type ValidationVerdict } from "../validation/run-validation.ts";
import { deliverByMerge, type DeliveryError } from "./deliver-merge.ts";
import type { RunDelivery } from "./run-delivery.ts";
import { deliverByPullRequest, type PullRequestSettings } from "./pull-request/deliver-pull-request.ts";
import type { ValidationLine } from "./pull-request/pull-request-body.ts";

/** Where a run's delivery steps work: its folder, its workspace, its redaction and trace caps. */
export type RunPlace = { runDir: string; workspace: Workspace; redactor: Redactor; maxOutputChars?: number | undefined; signal: AbortSignal };

function traceOf(place: RunPlace): TraceStore {
  return new TraceStore(definedFields({ runDir: place.runDir, redactor: place.redactor, maxChars: place.maxOutputChars }));
}

/** `[setup]` in the run's fresh workspace; the failure that fails the run before any agent starts. */
export function setupRunWorkspace(sink: RunSink, delivery: RunDelivery | undefined, place: RunPlace, branch?: string): Promise<SetupFailure | undefined> {
  if (delivery === undefined || delivery.setup.length === 0) return Promise.resolve(undefined);
  return runSetup(sink, { steps: delivery.setup, cwd: place.workspace.path, branch, env: delivery.commandEnv, trace: traceOf(place), redactor: place.redactor, signal: place.signal });
}

/** The validation a run's agent must pass, or undefined when it has no commands. */
export function validationSpec(delivery: RunDelivery | undefined, place: RunPlace): ValidationSpec | undefined {
  if (delivery === undefined || delivery.validation.commands.length === 0) return undefined;
  return { ...delivery.validation, env: delivery.commandEnv, trace: traceOf(place), redactor: place.redactor };
}

/** The last verdict as the run's end decision takes it. */
export function validationEnd(verdict: ValidationVerdict | undefined): { passed: boolean; error?: { code: string; message: string } } | undefined {
  if (verdict === undefined) return undefined;
  return verdict.passed ? { passed: true } : { passed: false, error: validationFailedError(verdict) };
}

/** `[artifacts] include`, captured from the run's workspace (`seen` keeps a path's unchanged content from being announced twice). */
export async function captureRunArtifacts(sink: RunSink, delivery: RunDelivery | undefined, place: RunPlace, seen: Map<string, string>): Promise<void> {
  if (delivery === undefined || delivery.artifacts.include.length === 0) return;
  await captureArtifacts(sink, { ...delivery.artifacts, cwd: place.workspace.path, runDir: place.runDir }, seen);
}

/** The run's branch and base, or the error that says there is none to deliver (a run in place, a base that is no branch). */
function deliverableBranch(sink: RunSink, workspace: Workspace, what: string): { branch: string; base: string } | DeliveryError {
  if (workspace.kind !== "worktree" || workspace.branch === undefined) {
    const error = { code: "merge_refused", message: `the run worked in place, with no branch of its own: there is nothing to ${what}` };
    sink.append("log", { level: "error", ...error });
    return error;
  }
  if (workspace.baseBranch === undefined) {
    const error = { code: "merge_refused", message: `the run's base ${workspace.base ?? ""} is not a branch: ${what} ${workspace.branch} by hand, or start the run with --base BRANCH` };
    sink.append("log", { level: "error", ...error });
    return error;
  }
  return { branch: workspace.branch, base: workspace.baseBranch };
}

/** `--pr`, a `pull_request` stage: the run's branch pushed and a pull request opened. Returns what fails the run (or stage), or undefined. */
export async function openRunPullRequest(
  sink: RunSink,
  settings: PullRequestSettings,
  workspace: Workspace,
  run: { runId: string; number: number; task: string },
  validation: readonly ValidationLine[],
  signal?: AbortSignal,
): Promise<DeliveryError | undefined> {
  const target = deliverableBranch(sink, workspace, "open a pull request for");
  if ("code" in target) return target;
  return deliverByPullRequest(sink, settings, { root: workspace.root, ...target, run, state: sink.state, validation, signal });
}

/** `--merge`: the run's branch into its base branch. Returns what fails the run, or undefined. */
export async function mergeRunBranch(sink: RunSink, delivery: RunDelivery | undefined, workspace: Workspace, run: { runId: string; number: number; task: string }): Promise<DeliveryError | undefined> {
  if (delivery?.merge === undefined) return undefined;
  const target = deliverableBranch(sink, workspace, "merge");
  if ("code" in target) return target;
  return deliverByMerge(sink, {
    root: workspace.root,
    branch: target.branch,
    base: target.base,
    strategy: delivery.merge.strategy,
    subject: commitSubject(sink.redactText(run.task)),
    runLine: `Baton run ${run.runId} (run ${run.number}).`,
  });
}
