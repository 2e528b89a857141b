// Fixtures for dispatch end to end: a repository with a bare remote (the only thing workers share),
// and the events of runs read back through `baton events`.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "@baton/engine/store/postgres-testing";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import type { TestContext } from "node:test";
import { cliEnv, git, makeRepo, parseNdjson, runBaton, servedAt, startBaton, type BatonProcess } from "./cli-harness.ts";

/** A repository whose `main` is pushed to a bare remote of its own; returns both. */
export async function repoWithRemote(prefix: string): Promise<{ repo: string; remote: string }> {
  const repo = await makeRepo(prefix);
  const remote = join(await testTempDir(`${prefix}remote-`), "origin.git");
  await git(repo, "init", "-q", "--bare", "-b", "main", remote);
  await git(repo, "remote", "add", "origin", remote);
  await git(repo, "push", "-q", "origin", "main");
  return { repo, remote };
}

/** The environment of a command on the shared store. */
export function storeEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return cliEnv({ BATON_STORE: url, ...extra });
}

/** A `baton serve` in `folder` on the shared store (killed after the test), and a JSON POST to its API. */
export async function serveStore(t: TestContext, folder: string, url: string): Promise<{ server: BatonProcess; post(path: string, body: unknown): Promise<Response> }> {
  const server = startBaton(folder, ["serve", "--port", "0"], { env: storeEnv(url) });
  t.after(() => server.kill());
  const { base, auth } = await servedAt(server);
  return { server, post: (path, body) => fetch(`${base}${path}`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) }) };
}

/** A run's stored events, as `baton events RUN --json` prints them. */
export async function storedEvents(repo: string, url: string, run: string | number): Promise<Envelope[]> {
  const result = await runBaton(repo, ["events", String(run), "--json"], { env: storeEnv(url) });
  if (result.code !== 0) throw new Error(`baton events ${run} failed: ${result.stderr}`);
  return parseNdjson<Envelope>(result.stdout);
}

const FINAL = new Set(["run.completed", "run.failed", "run.cancelled"]);

export function finalEvents(events: readonly Envelope[]): Envelope[] {
  return events.filter((event) => FINAL.has(event.type));
}

/**
 * Writes every run's stored events as an `events.jsonl` in a test folder: the suite validates
 * each such log against the schema at its end, as it does the file store's.
 */
export async function exportStoredLogs(url: string): Promise<number> {
  const root = await testTempDir("cli-dispatch-stored-logs-");
  const rows = (await sql(url, "SELECT run_id, body FROM baton_events ORDER BY run_id, seq")).rows as Array<{ run_id: string; body: string }>;
  const byRun = new Map<string, string[]>();
  for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row.body]);
  for (const [run, bodies] of byRun) {
    await mkdir(join(root, run), { recursive: true });
    await writeFile(join(root, run, "events.jsonl"), `${bodies.join("\n")}\n`);
  }
  return byRun.size;
}
