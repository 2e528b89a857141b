import { BatonError } from "@baton/engine/errors";
import { definedFields } from "@baton/protocol/core";
import type { CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { storeUrlOf } from "../project-store.ts";
import type { RunOptions } from "./run.ts";
import { submitCommand } from "./submit.ts";

/** What a worker cannot do for a detached run: it starts from the remote, alone. */
const NOT_DISPATCHED: Array<[keyof RunOptions, string]> = [
  ["inPlace", "--in-place"],
  ["includeDirty", "--include-dirty"],
  ["merge", "--merge"],
];

/**
 * `baton run --detach`: on a shared store, the run is queued for the workers (as `baton
 * submit`) and the command returns at once with its number. The embedded store has no workers.
 */
export async function runDetachCommand(ctx: CliContext, task: string | undefined, options: RunOptions & { workflow?: string; autoApprove?: boolean }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  if ((await storeUrlOf(ctx, project.batonDir)) === undefined) {
    throw new BatonError("usage", "--detach queues the run for the workers of a shared store; this project uses the embedded store", {
      hint: "pass --store postgres://… with baton worker running against it, or run it in the background from your shell (baton run … &)",
    });
  }
  for (const [key, flag] of NOT_DISPATCHED) {
    if ((options as Record<string, unknown>)[key] !== undefined && (options as Record<string, unknown>)[key] !== false) {
      throw new BatonError("usage", `${flag} cannot go with --detach: a worker starts the run from the remote, on its own`, { hint: `drop ${flag}, or run without --detach` });
    }
  }
  if ((options.validate ?? []).length > 0) throw new BatonError("usage", "--validate cannot go with --detach yet", { hint: "use [validation] commands in the repository's .baton/config.toml" });
  return submitCommand(ctx, task, definedFields({ workflow: options.workflow, autoApprove: options.autoApprove, agent: options.agent, script: options.script, model: options.model, json: options.json, base: options.base, requireOutput: options.requireOutput, timeout: options.timeout, maxCost: options.maxCost, maxTokens: options.maxTokens, maxToolCalls: options.maxToolCalls, maxRequests: options.maxRequests, maxRepeats: options.maxRepeats }));
}
