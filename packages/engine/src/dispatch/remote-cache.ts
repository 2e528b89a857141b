import { createHash } from "node:crypto";
import { access, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BatonError } from "../errors.ts";
import { git, gitFailure } from "../workspace/git-cli.ts";

/** A checkout of a repository without a committed `.baton/` gets one that git ignores whole (the checkout stays clean). */
const BATON_GITIGNORE = "*\n";

/**
 * A worker's copies of the repositories it runs in: workers share no file system, so each
 * keeps a bare clone of each remote (`cache/<hash>.git`), fetched before every run, and gives
 * each run a checkout of its own (`work/<run>`, a worktree of that clone at the run's base).
 * The run's branch is made in the clone and pushed back to the remote.
 */
export class RemoteCache {
  readonly #root: string;
  /** One git operation on a clone at a time in this process (fetch, worktree add, push). */
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Clones used by this process already: their lock files are its own. */
  readonly #tidied = new Set<string>();

  constructor(root: string) {
    this.#root = root;
  }

  /** A checkout of `remote` at `base` for `run`, with a `.baton/` (from the repository, or an empty one). */
  async checkout(remote: string, base: string, run: string): Promise<string> {
    const clone = await this.#clone(remote);
    const dir = join(this.#root, "work", run);
    await this.#locked(clone, async () => {
      await this.#tidy(clone);
      await gitStep(clone, ["fetch", "--quiet", "--prune", remote, "+refs/heads/*:refs/remotes/origin/*"], `fetching ${remote}`);
      await gitStep(clone, ["cat-file", "-e", `${base}^{commit}`], `finding the run's base ${base} on ${remote}`);
      await git(clone, ["worktree", "remove", "--force", dir]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
      await git(clone, ["worktree", "prune"]).catch(() => {});
      await gitStep(clone, ["worktree", "add", "--quiet", "--detach", dir, base], "making the run's checkout");
    });
    const batonDir = join(dir, ".baton");
    await mkdir(batonDir, { recursive: true });
    await writeFile(join(batonDir, ".gitignore"), BATON_GITIGNORE, { flag: "wx" }).catch(() => {});
    return dir;
  }

  /**
   * Pushes `branch` of the clone of `remote` to the remote. Forced: the run's branch is the
   * run's own, and only its lease holder pushes it; a run continued from a checkpoint older
   * than the remote's tip (its lost worker pushed a commit it never checkpointed) moves it back.
   */
  async push(remote: string, branch: string): Promise<void> {
    const clone = this.clonePath(remote);
    await this.#locked(clone, () => gitStep(clone, ["push", "--quiet", remote, `+refs/heads/${branch}:refs/heads/${branch}`], `pushing ${branch} to ${remote}`));
  }

  /**
   * The newest of `commits` (oldest first) that the remote's `branch` has, as fetched by the
   * last `checkout`: undefined when the remote has no such branch or none of them.
   */
  async newestPushed<T extends { commit: string | undefined }>(remote: string, branch: string, commits: readonly T[]): Promise<T | undefined> {
    const clone = this.clonePath(remote);
    const tip = await git(clone, ["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${branch}^{commit}`]).catch(() => undefined);
    if (tip === undefined || tip === "") return undefined;
    for (const candidate of [...commits].reverse()) {
      if (candidate.commit === undefined) continue;
      const pushed = await git(clone, ["merge-base", "--is-ancestor", candidate.commit, tip]).then(
        () => true,
        () => false,
      );
      if (pushed) return candidate;
    }
    return undefined;
  }

  /** A worktree of the clone of `remote` at `path`, on `branch` reset to `commit` (a run continued on this worker). */
  async worktreeAt(remote: string, path: string, branch: string, commit: string): Promise<void> {
    const clone = this.clonePath(remote);
    await this.#locked(clone, async () => {
      await git(clone, ["worktree", "remove", "--force", path]).catch(() => {});
      await rm(path, { recursive: true, force: true });
      await git(clone, ["worktree", "prune"]).catch(() => {});
      await mkdir(join(path, ".."), { recursive: true });
      await gitStep(clone, ["worktree", "add", "--quiet", "-B", branch, path, commit], `checking out ${branch} at ${commit.slice(0, 12)}`);
    });
  }

  clonePath(remote: string): string {
    return join(this.#root, "cache", `${createHash("sha256").update(remote).digest("hex").slice(0, 16)}.git`);
  }

  /**
   * The first time this process uses a clone, the lock files in it were left by a worker killed
   * in the middle of a git command in the same folder (this process is the folder's only user):
   * they are removed, and worktrees whose folders are gone are pruned.
   */
  async #tidy(clone: string): Promise<void> {
    if (this.#tidied.has(clone)) return;
    this.#tidied.add(clone);
    const entries = await readdir(clone, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isFile() && entry.name.endsWith(".lock")) await rm(join(entry.parentPath, entry.name), { force: true });
    await git(clone, ["worktree", "prune"]).catch(() => {});
  }

  async #clone(remote: string): Promise<string> {
    const clone = this.clonePath(remote);
    await this.#locked(clone, async () => {
      if (await exists(clone)) return;
      const partial = `${clone}.${process.pid}.partial`;
      await rm(partial, { recursive: true, force: true });
      await mkdir(join(this.#root, "cache"), { recursive: true });
      await gitStep(this.#root, ["clone", "--quiet", "--bare", remote, partial], `cloning ${remote}`);
      await rename(partial, clone);
    });
    return clone;
  }

  async #locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#locks.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    this.#locks.set(
      key,
      mine.catch(() => {}),
    );
    return mine;
  }
}

async function gitStep(cwd: string, args: string[], doing: string): Promise<void> {
  try {
    await git(cwd, args);
  } catch (error) {
    throw new BatonError("workspace_remote", `${doing} failed: ${gitFailure(error)}`, { hint: "check that the worker can reach the repository's remote and that the base commit was pushed", cause: error });
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
