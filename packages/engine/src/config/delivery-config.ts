import { z } from "zod";

/** How a run's branch lands in its base: a merge commit, one squashed commit, or a fast-forward only. */
export const mergeStrategySchema = z.enum(["merge", "squash", "ff-only"]);
export type MergeStrategy = z.infer<typeof mergeStrategySchema>;

/** `owner/name`, as GitHub spells a repository. */
const githubRepoSchema = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name, as in github_repo = \"acme/app\"");

/**
 * `[delivery]`: what happens to a run's work when it succeeded. `manual` (the default) leaves
 * it on the run's branch; `merge` merges it into the base branch (as `--merge` does);
 * `pull_request` pushes the branch to `remote` and opens a pull request on GitHub (as `--pr`).
 */
export const deliveryConfigSchema = z
  .strictObject({
    mode: z.enum(["manual", "merge", "pull_request"]).default("manual"),
    strategy: mergeStrategySchema.default("merge"),
    /** The git remote a pull request's branch is pushed to. */
    remote: z.string().min(1).default("origin"),
    /** Pull requests open as drafts. */
    draft: z.boolean().default(false),
    /** GitHub's REST API (GitHub Enterprise: `https://HOST/api/v3`). */
    github_api_url: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
    /** The repository pull requests are opened in; by default read from the remote's URL. */
    github_repo: githubRepoSchema.optional(),
  })
  .prefault({});
export type DeliveryConfig = z.infer<typeof deliveryConfigSchema>;
