/** Longest a test waits for something that should happen soon (a loaded 2-core CI box). */
export const WAIT_MS = 45_000;

/** How often a condition is looked at again. */
const POLL_MS = 50;

/** Polls `condition` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
