import type { MergeStrategy } from "../config/delivery-config.ts";
import type { SetupCommand } from "../setup/run-setup.ts";
import type { PullRequestSettings } from "./pull-request/deliver-pull-request.ts";

/**
 * What a run does around its agent's work: setup commands in its fresh workspace before the
 * agent starts, validation (with fix rounds) when the agent ends its task, files captured as
 * artifacts, and the merge of its branch into its base when it succeeded.
 */
export type RunDelivery = {
  setup: readonly SetupCommand[];
  validation: { commands: readonly string[]; timeoutMs: number; maxFixRounds: number };
  artifacts: { include: readonly string[]; maxBytes: number };
  /** `--merge`, `[delivery] mode = "merge"`: the strategy; undefined leaves the branch as it is. */
  merge?: { strategy: MergeStrategy } | undefined;
  /** `--pr`, `[delivery] mode = "pull_request"`: push the branch and open a pull request when the run succeeded. */
  pullRequest?: boolean | undefined;
  /** Where pull requests go (`[delivery]` remote, draft, GitHub API) and the token (never logged): for `--pr` and `pull_request` stages. */
  github: PullRequestSettings;
  /** `[delivery] strategy` (or `--merge-strategy`): what a merge stage without `strategy=` uses. */
  strategy: MergeStrategy;
  /** The built environment setup and validation commands run with (as command stages do). */
  commandEnv: Record<string, string>;
};
