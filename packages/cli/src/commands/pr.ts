import { githubToken, TOKEN_VARIABLES } from "@baton/engine/delivery";
import { BatonError } from "@baton/engine/errors";
import { EXIT, type CliContext } from "../context.ts";
import { deliverRun } from "./deliver-run.ts";

/**
 * `baton pr RUN`: delivers a run that has ended as a pull request, by a new short run of the
 * built-in `deliver` workflow that names it: its branch pushed to `[delivery] remote`, then the
 * pull request opened on GitHub with the token from GITHUB_TOKEN / GH_TOKEN (never logged).
 */
export async function prCommand(ctx: CliContext, ref: string, options: { draft?: boolean; remote?: string; json?: boolean }): Promise<number> {
  const token = githubToken(ctx.env);
  const { result, run } = await deliverRun(
    ctx,
    ref,
    "delivered as a pull request",
    (config, ended) => {
      if (token === undefined) {
        throw new BatonError("usage", `a pull request is opened on GitHub, and neither ${TOKEN_VARIABLES.join(" nor ")} is set: run ${ended.number} is not delivered`, { hint: `export GITHUB_TOKEN (a token with pull requests: write), then baton pr ${ended.number}` });
      }
      const settings = { remote: options.remote ?? config.delivery.remote, draft: options.draft === true || config.delivery.draft, apiUrl: config.delivery.github_api_url, repo: config.delivery.github_repo, token };
      return { kind: "pull_request", settings, state: ended.state, validation: ended.validation };
    },
    options.json === true,
  );
  if (options.json !== true) {
    ctx.stdout.write(result.status === "succeeded" ? `\nOpened a pull request for run ${run.number} (${run.branch} into ${run.base}): ${result.url ?? ""}\n` : `\nNo pull request: ${result.error?.message ?? ""}\n`);
  }
  return result.status === "succeeded" ? EXIT.succeeded : EXIT.failed;
}
