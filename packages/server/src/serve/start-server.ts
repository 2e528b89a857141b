import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { BatonError } from "@baton/engine/errors";
import { createApp, type AppOptions } from "../app.ts";
import type { HubRegistry } from "../stream/hub-registry.ts";

export type ServeOptions = Omit<AppOptions, "token" | "allowedHosts"> & {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Default: a random token per start. */
  token?: string | undefined;
  /** More names allowed in the Host header (--allow-host). */
  allowHosts?: readonly string[];
};

/** What `baton serve` writes to `.baton/serve.json` (mode 0600: it holds the token). */
export type ServeInfo = { url: string; host: string; port: number; token: string; pid: number };

export type RunningServer = ServeInfo & {
  /** The URL to open: the UI with its token. */
  openUrl: string;
  hubs: HubRegistry;
  /** Stops listening, ends the streams and connections, removes serve.json. Runs are not touched. */
  close(): Promise<void>;
};

export const SERVE_FILE = "serve.json";

/** A token that is hard to guess and safe in a URL. */
export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * Starts the server on `host:port` and records how to reach it in `.baton/serve.json`.
 *
 * @example
 * const server = await startServer({ store, projectRoot, cliEntry, host: "127.0.0.1", port: 0 });
 * console.log(server.openUrl);
 * await server.close();
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? newToken();
  const { app, hubs } = createApp({ ...options, token, allowedHosts: [options.host, ...(options.allowHosts ?? [])] });
  const server = await listen(app.fetch, options.host, options.port);
  const port = (server.address() as AddressInfo).port;
  const urlHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${urlHost}:${port}/`;
  const info: ServeInfo = { url, host: options.host, port, token, pid: process.pid };
  const infoPath = join(options.store.batonDir, SERVE_FILE);
  writePrivate(infoPath, `${JSON.stringify(info, null, 2)}\n`);
  let closing: Promise<void> | undefined;
  return {
    ...info,
    openUrl: `${url}?token=${encodeURIComponent(token)}`,
    hubs,
    close: () => {
      closing ??= (async () => {
        hubs.closeAll();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Streams never end on their own: without this, close() waits for every client.
        if ("closeAllConnections" in server) server.closeAllConnections();
        await closed;
        removeIfOurs(infoPath);
      })();
      return closing;
    },
  };
}

function listen(fetch: Parameters<typeof serve>[0]["fetch"], hostname: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => {
      const hint = error.code === "EADDRINUSE" ? "pick another --port, or 0 for any free one" : "check --host and --port";
      reject(new BatonError("listen_failed", `cannot listen on ${hostname}:${port}: ${error.code ?? error.message}`, { hint }));
    });
  });
}

/** Written aside with mode 0600 and renamed: the token is never readable by others, not even briefly. */
function writePrivate(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

function removeIfOurs(path: string): void {
  try {
    const info = JSON.parse(readFileSync(path, "utf8")) as Partial<ServeInfo>;
    if (info.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // Gone or rewritten by another server: leave it.
  }
}
