import { existsSync } from "node:fs";
import { BatonError } from "../errors.ts";
import { gitRaw, nulFields } from "./git-cli.ts";

/** What a run's events say about its workspace and commit (from the folded run state). */
export type RunWorkspaceRecord = {
  workspace?: { kind: string; path: string; branch?: string; base?: string; base_sha?: string };
  commit?: { sha: string; branch: string };
};

/**
 * A run's change as git shows it: the run's commit against its base (`base_sha..branch`), or,
 * before a commit (running, or in place), the workspace's working changes against its base,
 * untracked files included.
 */
export async function runDiff(root: string, record: RunWorkspaceRecord, options: { stat?: boolean } = {}): Promise<string> {
  const workspace = record.workspace;
  if (workspace === undefined) {
    throw new BatonError("no_workspace", "the run has no workspace yet", { hint: "wait for its workspace.ready event" });
  }
  const format = options.stat ? ["--stat"] : [];
  if (record.commit !== undefined && workspace.base_sha !== undefined) {
    const branchExists = await refExists(root, `refs/heads/${record.commit.branch}`);
    const tip = branchExists ? record.commit.branch : record.commit.sha;
    return gitRaw(root, ["diff", ...format, `${workspace.base_sha}..${tip}`, "--"]);
  }
  if (!existsSync(workspace.path)) {
    throw new BatonError("no_workspace", `the run made no commit and its workspace ${workspace.path} is gone`, { hint: "there is nothing left to show" });
  }
  const against = workspace.kind === "worktree" && workspace.base_sha !== undefined ? workspace.base_sha : "HEAD";
  const tracked = await gitRaw(workspace.path, ["diff", ...format, against, "--", ".", ":(exclude).baton"]);
  const untracked = nulFields(await gitRaw(workspace.path, ["ls-files", "--others", "--exclude-standard", "-z", "--", ".", ":(exclude).baton"]));
  const added: string[] = [];
  for (const path of untracked) added.push(await newFileDiff(workspace.path, path, format));
  return [tracked, ...added].join("");
}

/** An untracked file shown as added: `git diff --no-index` exits 1 when there is a difference. */
async function newFileDiff(cwd: string, path: string, format: readonly string[]): Promise<string> {
  try {
    return await gitRaw(cwd, ["diff", "--no-index", ...format, "--", "/dev/null", path]);
  } catch (error) {
    const { code, stdout } = error as { code?: unknown; stdout?: unknown };
    if (code === 1 && typeof stdout === "string") return stdout;
    throw error;
  }
}

export async function refExists(cwd: string, ref: string): Promise<boolean> {
  return gitRaw(cwd, ["show-ref", "--verify", "--quiet", ref]).then(
    () => true,
    () => false,
  );
}
