// Fixtures for the web UI's browser tests: a real git repository with `.baton/` (made with
// testTempDir, so the suite validates the logs the tests leave), the real `baton serve` and
// `baton run` (child processes, as a user starts them), and the scripted fake agent.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Envelope } from "@baton/protocol/core";
import { testTempDir } from "@baton/protocol/testing";

const BATON_BIN = fileURLToPath(new URL("../../cli/bin/baton.js", import.meta.url));
/** Longest a test waits for something that should happen soon (a loaded 2-core CI box). */
export const WAIT_MS = 45_000;

/** Only what git, sh and node need: a secret-looking variable would turn redaction on. */
export function batonEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const identity = { GIT_AUTHOR_NAME: "Baton Test", GIT_AUTHOR_EMAIL: "test@baton.invalid", GIT_COMMITTER_NAME: "Baton Test", GIT_COMMITTER_EMAIL: "test@baton.invalid" };
  // No terminal here: runs need a timeout (also those the page starts through the server).
  return { ...env, ...identity, GIT_CONFIG_NOSYSTEM: "1", BATON_TIMEOUT: "10m", ...extra };
}

const execFileAsync = promisify(execFile);

/**
 * A git repository with one commit and `.baton/` made by `baton init`, whose runs need not
 * leave a change: these tests are about the page, and their scripts mostly talk.
 */
export async function makeProject(prefix: string): Promise<string> {
  const repo = await testTempDir(prefix);
  const git = (...args: string[]) => execFileAsync("git", args, { cwd: repo, env: batonEnv() });
  await git("init", "-q", "-b", "main");
  await writeFile(join(repo, "README.md"), "# sample\n");
  await git("add", "README.md");
  await git("commit", "-q", "-m", "Initial commit");
  await execFileAsync(process.execPath, [BATON_BIN, "init"], { cwd: repo, env: batonEnv() });
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, (await readFile(config, "utf8")).replace('require_output = "change"', 'require_output = "none"'));
  return repo;
}

/** Writes a fake-agent script (an array of steps, or one per stage) into the repository; returns its path. */
export async function writeScript(repo: string, name: string, steps: unknown): Promise<string> {
  const path = join(repo, name);
  await writeFile(path, `${JSON.stringify(steps, null, 2)}\n`);
  // Excluded from git: the working tree stays clean, so runs get their own worktree.
  await appendFile(join(repo, ".git", "info", "exclude"), `/${name}\n`);
  return path;
}

/** A `baton` child process, its output so far, and its end. */
export class Baton {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output = "";

  constructor(cwd: string, args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BATON_BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout?.setEncoding("utf8").on("data", (text: string) => (this.output += text));
    this.child.stderr?.setEncoding("utf8").on("data", (text: string) => (this.output += text));
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  /** SIGKILLs the process if it still runs, and waits for it to be gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exited;
  }
}

/** Starts `baton serve` on `port` and waits for the URL it prints (`http://…/?token=T`). */
export async function startServe(repo: string, port: number, token: string): Promise<{ server: Baton; url: string }> {
  const server = new Baton(repo, ["serve", "--port", String(port)], batonEnv({ BATON_SERVE_TOKEN: token }));
  let url: string | undefined;
  await waitFor("baton serve to print its URL", () => {
    url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s]+/.exec(server.output)?.[0];
    if (url === undefined && server.child.exitCode !== null) throw new Error(`baton serve exited: ${server.output}`);
    return url !== undefined;
  });
  return { server, url: url! };
}

/** Starts `baton run TASK --agent fake --script FILE` in the background. */
export function startRun(repo: string, task: string, script: string): Baton {
  return new Baton(repo, ["run", task, "--agent", "fake", "--script", script], batonEnv());
}

/** A TCP port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The durable events of the repository's run `runId`, as its log holds them. */
export async function readLog(repo: string, runId: string): Promise<Envelope[]> {
  const text = await readFile(join(repo, ".baton", "runs", runId, "events.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Envelope);
}

/** Polls `condition` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
