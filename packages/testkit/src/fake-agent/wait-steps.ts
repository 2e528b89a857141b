import { access } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * How often `wait_for` looks for its file. Polling rather than fs.watch: a watch misses
 * nothing only on some file systems, and a look every few milliseconds costs nothing here.
 */
const WAIT_FOR_POLL_MS = 20;

/**
 * `sleep`: waits, cut short by a cancel. Nothing goes on the wire meanwhile, so a long one
 * plays a stalled turn that still answers `session/cancel`.
 */
export async function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/**
 * `hang`: waits the whole time whatever arrives, as an agent stuck in a call that does not
 * answer `session/cancel`. A cancel that came meanwhile still ends the turn `cancelled` after.
 */
export async function hangThroughCancel(ms: number): Promise<void> {
  await sleep(ms);
}

/**
 * `wait_for`: waits until something exists at `path`, cut short by a cancel. Nothing goes on
 * the wire meanwhile, as in a `sleep`; the difference is who ends it: the test, by making the
 * file once it has seen what it checks.
 */
export async function waitForFileUnlessCancelled(path: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted && !(await exists(path))) await sleepUnlessCancelled(WAIT_FOR_POLL_MS, signal);
}

/**
 * `wait_for_notice`: waits until a prompt that came mid-turn holds `text`, cut short by a
 * cancel. The session notes each such prompt as it answers it (fake-agent.ts).
 */
export async function waitForNoticeUnlessCancelled(notices: readonly string[], text: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted && !notices.some((notice) => notice.includes(text))) await sleepUnlessCancelled(WAIT_FOR_POLL_MS, signal);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (error) {
    // Anything but "not there (yet)" is a mistake in the script: fail the turn, do not wait forever.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
}
