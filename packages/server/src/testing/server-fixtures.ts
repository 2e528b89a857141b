import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { openStore, type RunStoreWriter, type RunStore } from "@baton/engine/store";
import { testTempDir } from "@baton/protocol/testing";
import { createApp, type AppOptions } from "../app.ts";
import { startServer, type RunningServer } from "../serve/start-server.ts";

export const TEST_TOKEN = "test-token-0123456789";
export const AUTH = { authorization: `Bearer ${TEST_TOKEN}` } as const;

/** A `run.completed` for fixtures. */
export const COMPLETED = { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 };

/** A project folder with `.baton/` (no git: the store needs none) and its open store. */
export async function makeProject(prefix: string): Promise<{ root: string; batonDir: string; store: RunStore }> {
  const root = await testTempDir(prefix);
  const batonDir = join(root, ".baton");
  await mkdir(batonDir);
  return { root, batonDir, store: await openStore(batonDir, { pollMs: 50 }) };
}

/** A run begun with `run.created` (task, agent) and `run.started`, left open. */
export async function beginRun(store: RunStore, task = "fixture task"): Promise<RunStoreWriter> {
  const writer = await store.createRun({ task, agent: "fake", repo: { root: "/tmp/fixture", dirty: false } });
  writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "test" });
  await writer.flush();
  return writer;
}

/** A finished run: created, started, `logEvents` log events in several batches, completed. */
export async function finishedRun(store: RunStore, logEvents: number, task?: string): Promise<{ runId: string; number: number; last: number }> {
  const writer = await beginRun(store, task);
  await appendLogs(writer, logEvents);
  writer.append("run.completed", COMPLETED);
  await writer.close();
  return { runId: writer.runId, number: writer.number, last: logEvents + 3 };
}

export async function appendLogs(writer: RunStoreWriter, count: number, from = 1): Promise<void> {
  for (let index = from; index < from + count; index += 1) {
    writer.append("log", { level: "info", message: `m${index}` });
    if (index % 7 === 0) await yieldToLoop();
  }
  await writer.flush();
}

/** A stand-in for the CLI's launcher (`POST /api/runs`): see fake-cli.ts. */
export const FAKE_CLI = fileURLToPath(new URL("./fake-cli.ts", import.meta.url));

export function testApp(store: RunStore, root: string, options: Partial<AppOptions> = {}) {
  return createApp({ store, projectRoot: root, token: TEST_TOKEN, cliEntry: FAKE_CLI, ...options });
}

/** The server on a real socket (127.0.0.1, a free port), with test-sized stream limits by default. */
export function listenForTest(store: RunStore, root: string, options: Partial<Parameters<typeof startServer>[0]> = {}): Promise<RunningServer> {
  return startServer({ store, projectRoot: root, token: TEST_TOKEN, cliEntry: FAKE_CLI, host: "127.0.0.1", port: 0, ...options });
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}
