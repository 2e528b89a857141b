import { cleanBranchWorktrees, cleanRunWorktree, loadConfig, type BranchCleanOutcome } from "@baton/engine";
import { BatonError } from "@baton/engine/errors";
import { type RunSummary } from "@baton/engine/store";
import { isFinalStatus } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { readRunState } from "../run-state.ts";
import { visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/**
 * Removes finished runs' worktrees (all, or RUN), prunes git's worktree list, and deletes each
 * run's branch only when it holds nothing unmerged into its base. A running run is never touched.
 */
export async function cleanCommand(ctx: CliContext, ref: string | undefined): Promise<number> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  await using store = await openProjectStore(ctx, project);
  let runs: RunSummary[];
  if (ref === undefined) runs = await store.listRuns();
  else {
    const run = await store.resolveRun(ref);
    await store.recoverIfAbandoned(run.id);
    runs = [await store.getRun(run.id) ?? run];
  }
  let cleaned = 0;
  for (const run of runs) {
    const state = await readRunState(store, run.id);
    if (!isFinalStatus(state.status)) {
      if (ref === undefined) continue;
      throw new BatonError("run_active", `run ${run.number} is ${state.status}; its worktree is in use`, {
        hint: `wait for it to end, or cancel it first (baton cancel ${run.number})`,
      });
    }
    if (state.workspace?.kind !== "worktree") {
      if (ref !== undefined) ctx.stdout.write(`run ${run.number}: worked in place; nothing to clean\n`);
      continue;
    }
    const outcome = await cleanRunWorktree(project.root, state, { gitHooks: config.git.hooks });
    const parts: string[] = [];
    if (outcome.keptDirty) parts.push(`kept ${state.workspace.path}: it holds uncommitted changes (commit or discard them there, then clean again)`);
    if (outcome.removedWorktree) parts.push(`removed ${state.workspace.path}`);
    const branch = outcome.branch;
    if (branch?.action === "deleted") parts.push(`deleted branch ${branch.name} (nothing unmerged into ${branch.base ?? "its base"})`);
    if (branch?.action === "kept") {
      const commits = branch.unmerged === 1 ? "1 commit" : `${branch.unmerged ?? "some"} commits`;
      parts.push(`kept branch ${branch.name}: ${commits} not merged into ${branch.base ?? "its base"} (merge it, or delete it with git branch -D ${branch.name})`);
    }
    const branches = await cleanBranchWorktrees(project.root, state, { gitHooks: config.git.hooks });
    parts.push(...branches.map(describeBranch));
    if (outcome.removedWorktree || branch?.action === "deleted" || branches.some((b) => b.removedWorktree || b.branch?.action === "deleted")) cleaned += 1;
    // Paths and branch names come from the run's log.
    if (parts.length > 0) ctx.stdout.write(`run ${run.number}: ${visibleText(parts.join("; "))}\n`);
    else if (ref !== undefined) ctx.stdout.write(`run ${run.number}: already clean\n`);
  }
  if (ref === undefined && cleaned === 0) ctx.stdout.write("Nothing to clean.\n");
  return EXIT.succeeded;
}

/** What became of one fan-out branch's worktree and git branch. */
function describeBranch(outcome: BranchCleanOutcome): string {
  const parts: string[] = [];
  if (outcome.keptDirty) parts.push(`kept ${outcome.path}: it holds uncommitted changes`);
  if (outcome.removedWorktree) parts.push(`removed ${outcome.path}`);
  if (outcome.branch?.action === "deleted") parts.push(`deleted branch ${outcome.branch.name}`);
  if (outcome.branch?.action === "kept") parts.push(`kept branch ${outcome.branch.name} (${outcome.branch.unmerged ?? "some"} commit(s) not in the run's branch)`);
  return `branch ${outcome.name} of ${outcome.fanOut}: ${parts.length === 0 ? "already clean" : parts.join(", ")}`;
}
