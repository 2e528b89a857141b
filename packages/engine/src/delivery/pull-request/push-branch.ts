import { git, gitFailure } from "../../workspace/git-cli.ts";

export type PushOutcome = { kind: "pushed"; sha: string; url: string } | { kind: "refused"; message: string; hint: string };

/**
 * Pushes `branch` to `remote` (Baton pushes, never the agent): the branch's own ref only, never
 * with force, and never asking for a password (a prompt would hang the run: git's credential
 * helpers answer, or the push fails). The token for GitHub's API is not used for the push.
 */
export async function pushBranch(root: string, remote: string, branch: string): Promise<PushOutcome> {
  const url = await git(root, ["remote", "get-url", remote]).catch(() => undefined);
  if (url === undefined) return { kind: "refused", message: `the repository has no remote named ${remote}`, hint: `add it (git remote add ${remote} URL) or set [delivery] remote` };
  const sha = await git(root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]).catch(() => undefined);
  if (sha === undefined) return { kind: "refused", message: `the run's branch ${branch} is gone`, hint: "was it deleted by hand or by baton clean? nothing can be pushed" };
  try {
    await git(root, ["push", "--quiet", "--porcelain", remote, `refs/heads/${branch}:refs/heads/${branch}`], { env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" } });
  } catch (error) {
    return { kind: "refused", message: `${remote} refused the push of ${branch}: ${pushFailure(error)}`, hint: `the work is on ${branch}: fix the remote's access (or the branch), then baton pr again` };
  }
  return { kind: "pushed", sha, url };
}

/** The line of git's output that says why: a rejected ref's reason, else its first error. */
function pushFailure(error: unknown): string {
  const out = `${String((error as { stdout?: unknown }).stdout ?? "")}\n${String((error as { stderr?: unknown }).stderr ?? "")}`;
  const rejected = /^!\s+\S+\s+\[(?:remote )?rejected\]\s*\(?([^)\n]*)\)?/m.exec(out) ?? /^!\t\S+\t\[rejected\] \(([^)]*)\)/m.exec(out);
  if (rejected !== null) return `rejected (${rejected[1] ?? ""})`;
  const fatal = /^(?:fatal|error|remote): (.+)$/m.exec(out);
  return fatal?.[1] ?? gitFailure(error);
}
