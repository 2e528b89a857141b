// What the dispatch benchmarks share: a database of their own, a repository with a bare remote,
// worker processes (the CLI's launcher), and the runs' ends read from the store's catalog.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { migrateStore } from "@baton/engine/store";
import { cliEntry } from "../measure.ts";

const exec = promisify(execFile);
const ADMIN_URL = process.env["BATON_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GIT_ENV = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@baton.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@baton.invalid", GIT_CONFIG_NOSYSTEM: "1" };

export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A migrated database of its own; `drop` removes it. */
export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `baton_bench_${randomBytes(6).toString("hex")}`;
  await query(ADMIN_URL, `CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await migrateStore(url.toString());
  return { url: url.toString(), drop: () => query(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}) };
}

/** A repository with `.baton/` and one commit, pushed to a bare remote; returns both and the base. */
export async function repoWithRemote(): Promise<{ repo: string; remote: string; base: string }> {
  const root = await mkdtemp(path.join(tmpdir(), "baton-bench-dispatch-"));
  const repo = path.join(root, "repo");
  const remote = path.join(root, "origin.git");
  const git = (cwd: string, ...args: string[]) => exec("git", args, { cwd, env: { ...process.env, ...GIT_ENV } }).then((r) => r.stdout.trim());
  await git(root, "init", "-q", "-b", "main", repo);
  await writeFile(path.join(repo, "README.md"), "# bench\n");
  await git(repo, "add", "README.md");
  await git(repo, "commit", "-q", "-m", "Initial commit");
  await git(root, "init", "-q", "--bare", "-b", "main", remote);
  await git(repo, "push", "-q", remote, "main");
  return { repo, remote, base: await git(repo, "rev-parse", "HEAD") };
}

/** `baton worker` in a folder of its own. */
export async function startWorker(url: string, args: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), "baton-bench-worker-"));
  return spawn(process.execPath, [cliEntry, "worker", ...args], { cwd: dir, env: { ...process.env, ...GIT_ENV, BATON_STORE: url, BATON_TIMEOUT: "30m", ...env }, stdio: "ignore" });
}

export async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

export async function until(condition: () => Promise<boolean>, pollMs = 100): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, pollMs));
}

export async function liveWorkerCount(url: string): Promise<number> {
  return (await query<{ n: number }>(url, "SELECT count(*)::int AS n FROM baton_workers WHERE stopped_at IS NULL AND heartbeat_at > now() - lease_ms * interval '1 millisecond'"))[0]?.n ?? 0;
}

export async function endedRuns(url: string): Promise<number> {
  return (await query<{ n: number }>(url, "SELECT count(*)::int AS n FROM baton_runs WHERE status IN ('succeeded', 'stopped', 'failed', 'cancelled')"))[0]?.n ?? 0;
}
