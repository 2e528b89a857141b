import type { MergeStrategy } from "@baton/engine/delivery";
import { EXIT, type CliContext } from "../context.ts";
import { deliverRun } from "./deliver-run.ts";

/**
 * `baton merge RUN`: delivers a run that has ended, by a new short run of the built-in
 * `deliver` workflow that names it, whose merge stage merges its branch into its base.
 */
export async function mergeCommand(ctx: CliContext, ref: string, options: { strategy?: MergeStrategy; json?: boolean }): Promise<number> {
  const { result, run } = await deliverRun(ctx, ref, "merged", (config) => ({ kind: "merge", strategy: options.strategy ?? config.delivery.strategy }), options.json === true);
  if (options.json !== true) {
    ctx.stdout.write(result.status === "succeeded" ? `\nMerged run ${run.number} (${run.branch}) into ${run.base}: ${result.sha ?? ""}\n` : `\nNot merged: ${result.error?.message ?? ""}\n`);
  }
  return result.status === "succeeded" ? EXIT.succeeded : EXIT.failed;
}
