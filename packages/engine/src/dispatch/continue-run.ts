import { basename, join } from "node:path";
import { definedFields, type RunState } from "@baton/protocol/core";
import { isBatonError } from "../errors.ts";
import type { PreviousHolder } from "../store/pg/pg-dispatch.ts";
import type { PgRunWriter } from "../store/pg/pg-run-writer.ts";
import type { PgStore } from "../store/pg/pg-store.ts";
import { WORKTREES_DIR, type Workspace } from "../workspace/open-workspace.ts";
import { endLostAttempt, foldLostRun, lostMessage, recordWorkerLost, type CheckpointCommit } from "./lost-run.ts";
import type { RemoteCache } from "./remote-cache.ts";
import type { RunJob } from "./run-job.ts";

/** Where a lost workflow run goes on, on the worker that took it over: what `executeWorkflow`'s resume needs. */
export type Continuation = {
  /** The worker's checkout of the remote for the run. */
  checkout: string;
  /** The run's folded log, up to the end of the lost attempt. */
  state: RunState;
  attempt: number;
  /** The seq of the checkpoint it goes on after, and that checkpoint's stage. */
  checkpoint: number;
  stage: string;
  /** The run's worktree on this worker: its branch at that checkpoint's commit, as the remote has it. */
  workspace: Workspace;
};

/**
 * A workflow run whose worker was lost, taken over here: `worker.lost` is recorded, the run's
 * branch is fetched from the remote, and the lost attempt ends `worker_lost` (its open starts
 * ended first). When a checkpoint's commit is on the remote (the newest such: the lost worker
 * may have died before pushing its last one), the run's worktree is made here on its branch at
 * that commit and the run goes on from it, as `baton resume` does; otherwise it stays ended.
 */
export async function continueLostRun(parts: { store: PgStore; writer: PgRunWriter; previous: PreviousHolder; job: RunJob; cache: RemoteCache }): Promise<Continuation | undefined> {
  const { store, writer, previous, job, cache } = parts;
  const log = await foldLostRun(store, writer.runId);
  recordWorkerLost(writer, previous, store.owner, log);
  const recorded = log.state.workspace;
  const branch = recorded?.kind === "worktree" ? recorded.branch : undefined;
  let checkout: string | undefined;
  let point: (CheckpointCommit & { commit: string }) | undefined;
  let why = "no checkpoint of it is on the remote, so it cannot continue elsewhere";
  let path: string | undefined;
  if (recorded !== undefined && branch !== undefined && log.checkpoints.length > 0) {
    try {
      checkout = await cache.checkout(job.remote, job.base, job.run);
      point = (await cache.newestPushed(job.remote, branch, log.checkpoints)) as (CheckpointCommit & { commit: string }) | undefined;
      if (point !== undefined) {
        path = join(checkout, ".baton", WORKTREES_DIR, basename(recorded.path));
        await cache.worktreeAt(job.remote, path, branch, point.commit);
      }
    } catch (error) {
      path = undefined;
      why = `its checkpoint could not be restored from the remote on ${store.owner}: ${isBatonError(error) ? error.toLine() : String(error)}`;
    }
  }
  if (checkout === undefined || point === undefined || path === undefined || recorded === undefined || branch === undefined) {
    endLostAttempt(writer, log, lostMessage(previous, why));
    return undefined;
  }
  endLostAttempt(writer, log, lostMessage(previous, `it continues on ${store.owner} after stage ${point.stage}, from its checkpoint on the remote`));
  writer.resumeAfterFailed();
  const workspace: Workspace = definedFields({ kind: "worktree" as const, path, root: checkout, branch, base: recorded.base, baseBranch: recorded.base_branch, baseSha: recorded.base_sha });
  return { checkout, state: log.state, attempt: log.attempts + 1, checkpoint: point.seq, stage: point.stage, workspace };
}
