import { definedFields } from "@baton/protocol/core";
import type { RunSink } from "../run/run-sink.ts";
import { mergeIntoBase, type MergeRequest } from "./merge-into-base.ts";

export type DeliveryError = { code: string; message: string };

/**
 * Merges a run's branch into its base and records it: `git.merged`, or `merge.conflicted`
 * naming the files, or a `log` error for a refusal (a dirty checkout of the base, a base that
 * moved on under `ff-only`). Returns the error that fails the delivery, or undefined.
 * `delivered` names the run merged when it is another run (`baton merge`).
 */
export async function deliverByMerge(sink: RunSink, request: MergeRequest, delivered?: { run: string; number: number }): Promise<DeliveryError | undefined> {
  const outcome = await mergeIntoBase(request);
  const where = { branch: request.branch, base: request.base, strategy: request.strategy };
  switch (outcome.kind) {
    case "merged":
      sink.append("git.merged", definedFields({ sha: outcome.sha, ...where, run: delivered?.run, number: delivered?.number, up_to_date: outcome.upToDate || undefined, worktree: outcome.worktree }));
      return undefined;
    case "conflicted": {
      sink.append("merge.conflicted", { ...where, files: outcome.files });
      const shown = outcome.files.slice(0, 10).join(", ") + (outcome.files.length > 10 ? `, … (${outcome.files.length} files)` : "");
      return { code: "merge_conflicted", message: `${request.branch} conflicts with ${request.base} in ${shown}; nothing was changed: resolve it on the branch (or merge by hand), then baton merge again` };
    }
    case "refused": {
      const error = { code: outcome.code, message: `${outcome.message}: ${outcome.hint}` };
      sink.append("log", { level: "error", ...error });
      return error;
    }
  }
}
