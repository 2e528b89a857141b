import { mkdirSync, watch, type FSWatcher } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REQUESTS_DIR } from "../input/request-folder.ts";

/** A request to cancel a run, left by another process (or the server) in the run's requests folder. */
export type CancelRequest = { by: string; reason?: string };

export const CANCEL_REQUEST_FILE = "cancel-request.json";

/**
 * Where the cancel request is left: `requests/` in the run's folder, beside people's requests.
 * Not the run's folder itself, which the run's log, its commit hint and its ACP transcript are
 * written to many times a second: a watch of that folder woke the run's process at each write.
 */
export function cancelRequestPath(runDir: string): string {
  return join(runDir, REQUESTS_DIR, CANCEL_REQUEST_FILE);
}
/** Watching may miss an event (network file systems, overlay quirks): also look this often. */
const CANCEL_POLL_MS = 250;

/** Leaves a cancel request for the process running the run. Atomic: written aside, then renamed. */
export async function requestCancel(runDir: string, request: CancelRequest): Promise<void> {
  const path = cancelRequestPath(runDir);
  await mkdir(join(runDir, REQUESTS_DIR), { recursive: true });
  await writeFile(`${path}.tmp-${process.pid}`, JSON.stringify({ ...request, at: new Date().toISOString() }));
  await rename(`${path}.tmp-${process.pid}`, path);
}

/**
 * Calls `onRequest` once when a cancel request appears in `runDir`'s requests folder (made
 * here, so that it can be watched from the start). Returns a function that stops watching.
 */
export function watchCancelRequest(runDir: string, onRequest: (request: CancelRequest) => void): () => void {
  let done = false;
  let watcher: FSWatcher | undefined;
  const check = async () => {
    if (done) return;
    const text = await readFile(cancelRequestPath(runDir), "utf8").catch(() => undefined);
    if (text === undefined || done) return;
    let request: CancelRequest = { by: "unknown" };
    try {
      const parsed = JSON.parse(text) as Partial<CancelRequest>;
      request = { by: typeof parsed.by === "string" ? parsed.by : "unknown", ...(typeof parsed.reason === "string" ? { reason: parsed.reason } : {}) };
    } catch {
      // A request we cannot read is still a request to cancel.
    }
    stop();
    onRequest(request);
  };
  const poll = setInterval(() => void check(), CANCEL_POLL_MS);
  poll.unref();
  try {
    mkdirSync(join(runDir, REQUESTS_DIR), { recursive: true });
    watcher = watch(join(runDir, REQUESTS_DIR), (_event, name) => {
      if (name === CANCEL_REQUEST_FILE) void check();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // Polling alone still works.
  }
  function stop() {
    done = true;
    clearInterval(poll);
    watcher?.close();
  }
  void check();
  return stop;
}

/** A run's cancel: from its caller's signal (Ctrl-C, SIGTERM) or a request left in its folder. */
export type RunCancel = {
  /** Aborted when the run is to be cancelled, for whichever reason came first. */
  readonly signal: AbortSignal;
  /** Who asked, once someone did. */
  requestedBy(): CancelRequest | undefined;
  /** Stops watching the signal and the folder. */
  stop(): void;
};

/** Who cancels a run whose log cannot be written. */
const WRITE_FAILURE_CANCEL: CancelRequest = { by: "baton", reason: "the run's log could not be written" };

/**
 * Watches the ways a run is cancelled: the caller's `signal` (its reason a CancelRequest, or a
 * user's interrupt), a cancel request file from another process (`baton cancel`, the API), and
 * `writeFailure`, the run writer's failure signal: a log that cannot be written (a full or
 * read-only disk) ends the run at once, its agent cancelled and stopped; closing the writer
 * then reports the failure.
 */
export function watchRunCancel(runDir: string, signal: AbortSignal, writeFailure?: AbortSignal): RunCancel {
  const cancel = new AbortController();
  let request: CancelRequest | undefined;
  const onAbort = () => {
    const reason: unknown = signal.reason;
    request ??= typeof reason === "object" && reason !== null && typeof (reason as CancelRequest).by === "string" ? (reason as CancelRequest) : { by: "user" };
    cancel.abort();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const stopWatching = watchCancelRequest(runDir, (fromFile) => {
    request ??= fromFile;
    cancel.abort();
  });
  const onWriteFailure = () => {
    request ??= WRITE_FAILURE_CANCEL;
    cancel.abort();
  };
  if (writeFailure?.aborted === true) onWriteFailure();
  else writeFailure?.addEventListener("abort", onWriteFailure, { once: true });
  return {
    signal: cancel.signal,
    requestedBy: () => request,
    stop: () => {
      stopWatching();
      signal.removeEventListener("abort", onAbort);
      writeFailure?.removeEventListener("abort", onWriteFailure);
    },
  };
}
