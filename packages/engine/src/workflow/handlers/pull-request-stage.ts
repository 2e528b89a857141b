import type { RunDelivery } from "../../delivery/run-delivery.ts";
import { openRunPullRequest } from "../../delivery/run-around.ts";
import type { ValidationLine } from "../../delivery/pull-request/pull-request-body.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";

export type PullRequestStageDeps = { workspace: Workspace; delivery: RunDelivery | undefined; run: { runId: string; number: number; task: string } };

/** The last validate stage's results, from the run's context (which a resumed run keeps). */
function validationOf(context: Record<string, unknown>): ValidationLine[] {
  const commands = context["validation.commands"];
  const failed = context["validation.failed"];
  if (!Array.isArray(commands)) return [];
  const failing = new Set(Array.isArray(failed) ? failed.map(String) : []);
  return commands.map((command) => ({ command: String(command), passed: !failing.has(String(command)), round: 0 }));
}

/**
 * A pull request stage (`type=pull_request`, usually behind a gate): the run's branch, as the
 * checkpoints before it committed it, pushed to `[delivery] remote` (`git.pushed`) and opened
 * as a pull request on GitHub (`pull_request.created`, `draft=` or `[delivery] draft`). No
 * token, a refused push or an API error fails the stage (`pull_request.failed`), routed like
 * any failure, the branch as it was.
 */
export function pullRequestStage(deps: PullRequestStageDeps, inBranch: boolean) {
  return async (stage: StageRun): Promise<StageResult> => {
    if (inBranch) return { outcome: "failed", class: "structural", error: { code: "pull_request_in_branch", message: `pull_request stage "${stage.node.id}" is inside a fan-out branch: only the run's own branch is delivered` } };
    const github = deps.delivery?.github ?? { remote: "origin", draft: false, apiUrl: "https://api.github.com" };
    const settings = { ...github, draft: stage.node.draft ?? github.draft };
    let url: string | undefined;
    const unsubscribe = stage.sink.onAppend((event) => {
      if (event.type === "pull_request.created" && typeof event.data["url"] === "string") url = event.data["url"];
    });
    const error = await openRunPullRequest(stage.sink, settings, deps.workspace, deps.run, validationOf(stage.sink.state.workflow.context), stage.signal).finally(unsubscribe);
    if (error === undefined) return { outcome: "succeeded", summary: `opened ${url ?? "a pull request"} for ${deps.workspace.branch ?? ""}`, signals: { context_updates: { "pull_request.url": url ?? null } } };
    return { outcome: "failed", class: "deterministic", error, signals: { context_updates: { "pull_request.error": error.code } } };
  };
}
