import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { hostname } from "node:os";
import { definedFields, type RunState } from "@baton/protocol/core";
import type { MergeStrategy } from "../config/delivery-config.ts";
import type { RepoInfo } from "../git/repo.ts";
import type { Redactor } from "../redaction/redactor.ts";
import { RunSink, type RunLogWriter } from "../run/run-sink.ts";
import { commitSubject } from "../workspace/commit-workspace.ts";
import { deliverByMerge, type DeliveryError } from "./deliver-merge.ts";
import { deliverByPullRequest, type PullRequestSettings } from "./pull-request/deliver-pull-request.ts";
import type { ValidationLine } from "./pull-request/pull-request-body.ts";

/** The built-in workflow of a delivery run: start → merge → exit (`baton merge`), or start → pull_request → exit (`baton pr`). */
export const DELIVER_WORKFLOW = deliverWorkflow("merge");

function deliverWorkflow(stage: "merge" | "pull_request") {
  return {
    name: "deliver",
    nodes: [
      { id: "start", handler: "start" },
      { id: stage, label: stage === "merge" ? "Merge" : "Pull request", handler: stage },
      { id: "exit", handler: "exit" },
    ],
    edges: [
      { from: "start", to: stage },
      { from: stage, to: "exit" },
    ],
  };
}

/** Where a run that ended recorded its deliveries (its own log is closed): one JSON line each. */
export const DELIVERIES_FILE = "deliveries.jsonl";

export type EndedRun = { runId: string; number: number; task: string; dir: string; branch: string; baseBranch: string; root: string };

/** How the ended run is delivered: merged into its base, or pushed with a pull request opened (its state and validation make the body). */
export type EndedRunDelivery = { kind: "merge"; strategy: MergeStrategy } | { kind: "pull_request"; settings: PullRequestSettings; state: RunState; validation: readonly ValidationLine[] };

export type DeliverEndedRunRequest = { original: EndedRun; delivery: EndedRunDelivery; repo: RepoInfo; redactor: Redactor; now: () => Date };

/**
 * `baton merge RUN`, `baton pr RUN`: a short run of the built-in `deliver` workflow that names
 * the run it delivers (`run.created.delivers`), whose one stage merges that run's branch into
 * its base, or pushes it and opens a pull request.
 * The delivery is also noted in the original run's folder, so its `baton show` lists it.
 */
export async function deliverEndedRun(writer: RunLogWriter, request: DeliverEndedRunRequest): Promise<{ status: "succeeded" | "failed"; error?: DeliveryError; sha?: string; url?: string }> {
  const sink = new RunSink(writer, request.redactor);
  const started = performance.now();
  const { original } = request;
  let merged: string | undefined;
  let opened: { url: string; number: number } | undefined;
  const unsubscribe = sink.onAppend((event) => {
    if (event.type === "git.merged" && typeof event.data["sha"] === "string") merged = event.data["sha"];
    if (event.type === "pull_request.created") opened = { url: String(event.data["url"]), number: Number(event.data["number"]) };
  });
  const how = request.delivery;
  const workflow = deliverWorkflow(how.kind);
  const id = how.kind;
  const label = how.kind === "merge" ? "Merge" : "Pull request";
  const delivered = { run: original.runId, number: original.number };
  try {
    sink.append("run.created", {
      number: writer.number,
      task: `Deliver run ${original.number}: ${original.task}`,
      agent: "baton",
      workflow: workflow.name,
      delivers: { run: original.runId, number: original.number },
      repo: request.repo,
    });
    sink.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: hostname() });
    sink.append("workflow.loaded", structuredClone(workflow) as unknown as Record<string, unknown>);
    const stage = sink.inStage({ id, visit: 1 });
    stage.append("stage.started", { stage: id, label, handler: id, visit: 1, attempt: 1, max_attempts: 1 });
    const where = { root: original.root, branch: original.branch, base: original.baseBranch };
    const error =
      how.kind === "merge"
        ? await deliverByMerge(stage, { ...where, strategy: how.strategy, subject: commitSubject(sink.redactText(original.task)), runLine: `Baton run ${original.runId} (run ${original.number}).` }, delivered)
        : await deliverByPullRequest(stage, how.settings, { ...where, run: { runId: original.runId, number: original.number, task: original.task }, state: how.state, validation: how.validation, delivered });
    const durationMs = Math.round(performance.now() - started);
    const usage = { input_tokens: 0, output_tokens: 0 };
    if (error !== undefined) {
      stage.append("stage.failed", { stage: id, visit: 1, error, class: "deterministic", will_retry: false, duration_ms: durationMs });
      sink.append("run.failed", { error, usage, active_ms: durationMs });
      return { status: "failed", error };
    }
    const summary = how.kind === "merge" ? `merged ${original.branch} into ${original.baseBranch}` : `opened ${opened?.url ?? "a pull request"} for ${original.branch}`;
    stage.append("stage.completed", definedFields({ stage: id, visit: 1, outcome: "succeeded", duration_ms: durationMs, summary }));
    sink.append("run.completed", { status: "succeeded", usage, active_ms: durationMs, duration_ms: durationMs });
    const at = request.now().toISOString();
    const note =
      how.kind === "merge"
        ? merged === undefined ? undefined : { run: writer.runId, number: writer.number, sha: merged, branch: original.branch, base: original.baseBranch, strategy: how.strategy, at }
        : opened === undefined ? undefined : { run: writer.runId, number: writer.number, url: opened.url, pull_request: opened.number, branch: original.branch, base: original.baseBranch, at };
    if (note !== undefined) await appendFile(join(original.dir, DELIVERIES_FILE), `${JSON.stringify(note)}\n`);
    return definedFields({ status: "succeeded" as const, sha: merged, url: opened?.url });
  } finally {
    unsubscribe();
    await writer.close();
  }
}
