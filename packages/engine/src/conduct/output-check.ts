import { git } from "../workspace/git-cli.ts";
import type { Workspace } from "../workspace/open-workspace.ts";

/**
 * Whether the run's workspace holds a change: uncommitted files, or commits past its base (an
 * agent may commit by itself). In place, any uncommitted change counts.
 */
export async function workspaceHasChange(workspace: Workspace): Promise<boolean> {
  const status = await git(workspace.path, ["status", "--porcelain", "--untracked-files=all"]);
  if (status !== "") return true;
  if (workspace.baseSha === undefined) return false;
  const head = await git(workspace.path, ["rev-parse", "HEAD"]).catch(() => workspace.baseSha);
  return head !== workspace.baseSha;
}
