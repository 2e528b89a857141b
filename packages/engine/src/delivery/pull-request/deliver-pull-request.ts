import { definedFields, type RunState } from "@baton/protocol/core";
import type { RunSink } from "../../run/run-sink.ts";
import { git } from "../../workspace/git-cli.ts";
import type { DeliveryError } from "../deliver-merge.ts";
import { githubRepoOf } from "./github-repo.ts";
import { openPullRequest } from "./open-pull-request.ts";
import { pullRequestBody, pullRequestTitle, type ValidationLine } from "./pull-request-body.ts";
import { pushBranch } from "./push-branch.ts";

/** `[delivery]`'s pull request settings, and the token from `GITHUB_TOKEN` / `GH_TOKEN` (never logged). */
export type PullRequestSettings = { remote: string; draft: boolean; apiUrl: string; repo?: string | undefined; token?: string | undefined };

export type PullRequestRequest = {
  root: string;
  branch: string;
  base: string;
  run: { runId: string; number: number; task: string };
  /** The run's state so far (its stages, usage and cost) and its validation results, for the body. */
  state: RunState;
  validation: readonly ValidationLine[];
  /** The run delivered, when it is another run (`baton pr`). */
  delivered?: { run: string; number: number } | undefined;
  signal?: AbortSignal | undefined;
};

/** Names of the token's variables, in the order they are read. */
export const TOKEN_VARIABLES = ["GITHUB_TOKEN", "GH_TOKEN"] as const;

export function githubToken(env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const name of TOKEN_VARIABLES) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

/**
 * Delivers a run's branch as a pull request: Baton pushes it to the remote (`git.pushed`), then
 * opens the pull request through GitHub's API (`pull_request.created`, or `pull_request.failed`
 * with the error). A refusal or failure leaves the run's work on its branch as it was, and
 * returns the error that fails the run or the stage, saying what to do.
 */
export async function deliverByPullRequest(sink: RunSink, settings: PullRequestSettings, request: PullRequestRequest): Promise<DeliveryError | undefined> {
  const { root, branch, base } = request;
  const where = definedFields({ branch, base, remote: settings.remote, run: request.delivered?.run, run_number: request.delivered?.number });
  const fail = (error: DeliveryError): DeliveryError => {
    sink.append("pull_request.failed", { ...where, error });
    return error;
  };
  if (settings.token === undefined) {
    return fail({ code: "github_token_missing", message: `no GitHub token to open the pull request with: set GITHUB_TOKEN (or GH_TOKEN), then baton pr ${request.delivered?.number ?? request.run.number}` });
  }
  const pushed = await pushBranch(root, settings.remote, branch);
  if (pushed.kind === "refused") return fail({ code: "push_refused", message: `${pushed.message}: ${pushed.hint}` });
  sink.append("git.pushed", { ...where, sha: pushed.sha });
  const repo = settings.repo ?? githubRepoOf(pushed.url);
  if (repo === undefined) {
    return fail({ code: "pull_request_failed", message: `the remote ${settings.remote} is not a GitHub repository Baton can name: set [delivery] github_repo = "owner/name"; ${branch} is pushed` });
  }
  const [diffStat, commits] = await Promise.all([
    git(root, ["diff", "--stat", `${base}...${branch}`]).catch(() => ""),
    git(root, ["log", "--oneline", "--no-decorate", "-n", "50", `${base}..${branch}`]).catch(() => ""),
  ]);
  const body = pullRequestBody({ runId: request.run.runId, number: request.run.number, task: request.run.task, branch, base, remote: settings.remote, diffStat, commits, state: request.state, validation: request.validation });
  const opened = await openPullRequest({ apiUrl: settings.apiUrl, repo, token: settings.token, head: branch, base, title: pullRequestTitle(request.run.task), body: sink.redactText(body), draft: settings.draft }, request.signal);
  if (opened.kind === "failed") return fail({ code: "pull_request_failed", message: `${opened.message}: ${opened.hint}` });
  sink.append("pull_request.created", { ...where, repo, url: opened.url, number: opened.number, head_sha: opened.headSha, draft: opened.draft });
  return undefined;
}

/** Keeps each validation command's last result as the run's events go by (for a pull request's body). */
export function trackValidation(sink: RunSink): { lines: () => ValidationLine[]; stop: () => void } {
  const last = new Map<string, ValidationLine>();
  const stop = sink.onAppend((event) => {
    if (event.type !== "validation.completed") return;
    const { command, passed, round } = event.data as { command?: unknown; passed?: unknown; round?: unknown };
    if (typeof command === "string") last.set(command, { command, passed: passed === true, round: typeof round === "number" ? round : 0 });
  });
  return { lines: () => [...last.values()], stop };
}
