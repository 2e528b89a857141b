// The clients of sse-fanout.bench.ts: C lean SSE clients (sse-client-worker.ts) spread over a
// few worker threads, so that the clients' parsing runs beside the server rather than in one
// event loop that every client's bytes queue behind. CPU time of the clients is the process's
// (workers included), read by the benchmark with process.cpuUsage().
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ClientResult } from "./sse-client-worker.ts";

export type { ClientResult };

const workerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "sse-client-worker.ts");

/** Worker threads for the clients: `--client-threads` / `BATON_BENCH_CLIENT_THREADS`, else the cores there are. */
export function clientThreads(fallback = os.availableParallelism()): number {
  const index = process.argv.indexOf("--client-threads");
  const text = index === -1 ? process.env["BATON_BENCH_CLIENT_THREADS"] : process.argv[index + 1];
  const threads = text === undefined ? fallback : Number(text);
  if (!Number.isSafeInteger(threads) || threads < 1) throw new Error(`--client-threads must be a whole number of at least 1, not ${text}`);
  return threads;
}

/**
 * Opens `count` streams of `http://127.0.0.1:<port><urlPath>` from `threads` workers.
 * `connected` resolves once every client has its response headers; `done` with every
 * client's result once every stream has ended.
 */
export function openClients(count: number, port: number, urlPath: string, token: string, threads: number): { connected: Promise<void>; done: Promise<ClientResult[]> } {
  const workers = Math.max(1, Math.min(threads, count));
  const connected: Promise<void>[] = [];
  const done: Promise<ClientResult[]>[] = [];
  for (let index = 0; index < workers; index += 1) {
    // Clients dealt out evenly: the first workers take one more when they do not divide.
    const share = Math.floor(count / workers) + (index < count % workers ? 1 : 0);
    const worker = new Worker(workerScript, { workerData: { port, path: urlPath, token, count: share } });
    const isConnected = Promise.withResolvers<void>();
    const isDone = Promise.withResolvers<ClientResult[]>();
    worker.on("message", (message: { type: "connected" } | { type: "done"; results: ClientResult[] }) => {
      if (message.type === "connected") isConnected.resolve();
      else isDone.resolve(message.results);
    });
    worker.once("error", (error) => {
      isConnected.reject(error);
      isDone.reject(error);
    });
    worker.once("exit", (code) => {
      const error = new Error(`a client worker exited with code ${code} before its streams ended`);
      isConnected.reject(error);
      isDone.reject(error);
    });
    connected.push(isConnected.promise);
    done.push(isDone.promise);
  }
  return { connected: Promise.all(connected).then(() => {}), done: Promise.all(done).then((lists) => lists.flat()) };
}
