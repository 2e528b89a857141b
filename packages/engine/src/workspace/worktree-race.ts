import { setTimeout as sleep } from "node:timers/promises";
import { gitFailure } from "./git-cli.ts";

/**
 * How often a git command that lost git's worktree race is tried in all. A try loses only when
 * another worktree is being added at that very moment: of 240 worktrees added 24 at a time,
 * 31 needed a second try and 4 a third.
 */
const RACE_ATTEMPTS = 8;
/** Upper bound of the random wait before the next try, times the try's number (ms). */
const RACE_BACKOFF_MS = 40;

/**
 * git's own race between worktrees: `git worktree add` creates
 * `.git/worktrees/<id>/commondir` and only then writes it, and every git command that lists
 * the worktrees (worktree add, remove and prune; branch -d) dies with
 * `failed to read .git/worktrees/<id>/commondir: Success` when it reads the file between the
 * two. git takes no lock for it, and a lock of Baton's own would not help: the command that
 * dies is the one *reading*, and readers include every git the user and the agents run.
 */
export function lostWorktreeRace(error: unknown): boolean {
  return /failed to read .*worktrees\/[^/]+\/commondir/.test(gitFailure(error));
}

/**
 * Runs a git command again while it loses {@link lostWorktreeRace}. That is safe because
 * the losing command dies while it lists the worktrees, before it has changed anything; the
 * random wait keeps many starts from colliding again in step.
 */
export async function retryingWorktreeRace<T>(attempt: () => Promise<T>, random: () => number = Math.random): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= RACE_ATTEMPTS || !lostWorktreeRace(error)) throw error;
      await sleep(Math.round(random() * RACE_BACKOFF_MS * tries));
    }
  }
}
