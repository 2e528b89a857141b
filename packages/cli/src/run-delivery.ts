import type { BatonConfig } from "@baton/engine/config";
import { githubToken, setupSteps, TOKEN_VARIABLES, type MergeStrategy, type RunDelivery } from "@baton/engine/delivery";
import { BatonError } from "@baton/engine/errors";

/** The delivery flags of `baton run`. */
export type DeliveryFlags = {
  /** `--validate CMD`, repeatable: after `[validation] commands`. */
  validate?: string[];
  /** `--merge`: merge the run's branch into its base when the run succeeded. */
  merge?: boolean;
  mergeStrategy?: MergeStrategy;
  /** `--pr`: push the run's branch and open a pull request when the run succeeded. */
  pr?: boolean;
  /** `--draft`: the pull request opens as a draft. */
  draft?: boolean;
};

/**
 * Setup, validation, artifacts and merge or pull request for a run, from config.toml and the
 * flags; checked before the run exists (a run that works in place has no branch to deliver, a
 * pull request needs a token). The token is read from the environment here and never logged.
 */
export function runDelivery(config: BatonConfig, flags: DeliveryFlags, run: { inPlace: boolean; commandEnv: Record<string, string>; env: Record<string, string | undefined>; workflow?: boolean }): RunDelivery {
  // In a workflow only its merge and pull_request stages deliver: `[delivery] mode` is for single runs.
  const mode = run.workflow === true ? "manual" : config.delivery.mode;
  if (flags.merge === true && flags.pr === true) throw new BatonError("usage", "--merge and --pr contradict each other: a run is delivered one way", { hint: "pass one of them" });
  const pr = flags.pr === true || (flags.merge !== true && mode === "pull_request");
  const merge = !pr && (flags.merge === true || mode === "merge");
  const asked = flags.merge === true ? "--merge" : flags.pr === true ? "--pr" : `[delivery] mode = "${mode}"`;
  if ((merge || pr) && run.inPlace) {
    throw new BatonError("usage", `${asked} needs a run on a branch of its own, and this one works in place`, { hint: "drop --in-place (or pass --worktree)" });
  }
  if (flags.draft === true && !pr && run.workflow !== true) throw new BatonError("usage", "--draft is for a pull request, and this run opens none", { hint: "add --pr, or drop --draft" });
  const token = githubToken(run.env);
  if (pr && token === undefined) {
    throw new BatonError("usage", `${asked} opens a pull request on GitHub, and neither ${TOKEN_VARIABLES.join(" nor ")} is set`, { hint: "export GITHUB_TOKEN (a token with pull requests: write), or drop --pr" });
  }
  return {
    setup: setupSteps(config.setup),
    validation: { commands: [...config.validation.commands, ...(flags.validate ?? [])], timeoutMs: config.validation.timeout, maxFixRounds: config.validation.max_fix_rounds },
    artifacts: { include: config.artifacts.include, maxBytes: config.artifacts.max_bytes },
    merge: merge ? { strategy: flags.mergeStrategy ?? config.delivery.strategy } : undefined,
    pullRequest: pr || undefined,
    github: { remote: config.delivery.remote, draft: flags.draft === true || config.delivery.draft, apiUrl: config.delivery.github_api_url, repo: config.delivery.github_repo, token },
    strategy: flags.mergeStrategy ?? config.delivery.strategy,
    commandEnv: run.commandEnv,
  };
}
