import { watch, type FSWatcher } from "node:fs";
import { link, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Where people's requests to a running run wait for its process: text to steer the agent
 * (`input-*.json`), answers to permission questions (`permission-*.json`) and replies to the
 * agent's questions (`question-*.json`), one file each,
 * in the run's folder. The process running the run watches it, as it watches for a cancel
 * request (run/cancel-request.ts); the CLI and the server leave files there.
 */
export const REQUESTS_DIR = "requests";
/** Watching may miss an event (network file systems, overlay quirks): also look this often. */
const REQUESTS_POLL_MS = 200;
/** The name a request file may have: a kind, a dash, a safe stem. */
const REQUEST_NAME = /^(input|permission|question)-[A-Za-z0-9_.-]{1,160}\.json$/;

/**
 * Leaves a request file, whole or not at all, and only if none of that name exists: written
 * aside, then hard-linked into place (a link never replaces a file). Returns `exists` when a
 * request of that name was left first: the first of two answers wins.
 */
export async function leaveRequest(runDir: string, name: string, body: Record<string, unknown>): Promise<"written" | "exists"> {
  if (!REQUEST_NAME.test(name)) throw new Error(`not a request file name: ${name}`);
  const dir = join(runDir, REQUESTS_DIR);
  await mkdir(dir, { recursive: true });
  const aside = join(dir, `.${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await writeFile(aside, JSON.stringify({ ...body, at: new Date().toISOString() }));
  try {
    await link(aside, join(dir, name));
    return "written";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
    throw error;
  } finally {
    await rm(aside, { force: true });
  }
}

/** Reads a request left earlier, or undefined when there is none (or it cannot be read). */
export async function readRequest(runDir: string, name: string): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(join(runDir, REQUESTS_DIR, name), "utf8").catch(() => undefined);
  return text === undefined ? undefined : parseBody(text);
}

/** A watch of a run's requests: `remove` deletes a request once it is taken (a new one of its name is then reported), `stop` ends the watch. */
export type RequestWatch = { stop(): void; remove(name: string): Promise<void> };

/**
 * Removes the answers to permission questions and the agent's questions left in the run's folder: a process that starts
 * (or resumes) the run has asked nothing yet, and the questions of the one before it were all
 * resolved, so such an answer is stale; kept, it would answer a later question of the same
 * call id (agents number their calls per session).
 */
export async function removeStaleAnswers(runDir: string): Promise<void> {
  const dir = join(runDir, REQUESTS_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => (name.startsWith("permission-") || name.startsWith("question-")) && REQUEST_NAME.test(name)).map((name) => rm(join(dir, name), { force: true })));
}

/**
 * Calls `onRequest` once for each request file in the run's folder, those there already first,
 * in name order within one look, until the file is removed (`remove`): a file of the same name
 * left after that is a new request.
 */
export function watchRequests(runDir: string, onRequest: (name: string, body: Record<string, unknown>) => void): RequestWatch {
  const dir = join(runDir, REQUESTS_DIR);
  const seen = new Set<string>();
  let done = false;
  let looking = false;
  let again = false;
  let watcher: FSWatcher | undefined;
  const look = async () => {
    if (done) return;
    if (looking) {
      again = true;
      return;
    }
    looking = true;
    try {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) {
        if (done || seen.has(name) || !REQUEST_NAME.test(name)) continue;
        seen.add(name);
        const text = await readFile(join(dir, name), "utf8").catch(() => undefined);
        const body = text === undefined ? undefined : parseBody(text);
        if (body !== undefined && !done) onRequest(name, body);
      }
    } finally {
      looking = false;
      if (again && !done) {
        again = false;
        void look();
      }
    }
  };
  const poll = setInterval(() => {
    if (watcher === undefined) watchDir();
    void look();
  }, REQUESTS_POLL_MS);
  poll.unref();
  function watchDir() {
    try {
      watcher = watch(dir, () => void look());
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // Not there yet (no request so far): polling makes it once a request comes.
    }
  }
  watchDir();
  void look();
  return {
    stop: () => {
      done = true;
      clearInterval(poll);
      watcher?.close();
    },
    remove: async (name) => {
      if (!REQUEST_NAME.test(name)) throw new Error(`not a request file name: ${name}`);
      await rm(join(dir, name), { force: true });
      seen.delete(name);
    },
  };
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
