import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { isFinalType, openStartsOf } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import {
  git,
  killProcessesUnder,
  liveProcessesUnder,
  onlyRunId,
  readEvents,
  readEventsText,
  runBaton,
  waitFor,
  workspacePath,
  writeScript,
  type CliResult,
} from "./cli-harness.ts";

/**
 * Mounting a small tmpfs needs root (CAP_SYS_ADMIN); the suite's machine runs as root, a
 * developer's account may not. Probed once: a container without the capability fails it too.
 */
const MOUNT_SKIP = await probeMount();

async function probeMount(): Promise<string | false> {
  if (process.getuid?.() !== 0) return "not root: mounting a small tmpfs to fill needs root";
  const dir = await testTempDir("tmpfs-probe-", { validateLogs: false });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" });
    execFileSync("umount", [dir], { stdio: "ignore" });
    return false;
  } catch {
    return "mount -t tmpfs failed (no CAP_SYS_ADMIN in this container)";
  }
}

/** A tmpfs of `bytes` mounted for the test; unmounted after it (lazily: a leftover process must not block it). */
async function smallDisk(t: TestContext, bytes: number): Promise<string> {
  const dir = await testTempDir("small-disk-", { validateLogs: false });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir]);
  t.after(() => {
    killProcessesUnder(dir);
    execFileSync("umount", ["-l", dir]);
  });
  return dir;
}

/** A git repository with one commit and `.baton/`, made in `dir`. */
async function repoIn(dir: string): Promise<string> {
  const repo = join(dir, "repo");
  await mkdir(repo);
  await git(repo, "init", "-q", "-b", "main");
  await writeFile(join(repo, "README.md"), "# sample\n");
  await git(repo, "add", "README.md");
  await git(repo, "commit", "-q", "-m", "Initial commit");
  const init = await runBaton(repo, ["init"]);
  assert.equal(init.code, 0, init.stderr);
  return repo;
}

/** One line on stderr, `baton: …`, naming the problem and the fix; no stack trace. */
function assertOneLineError(result: CliResult, problem: RegExp, fix: RegExp): void {
  assert.equal(result.code, 2, `exit 2; stderr:\n${result.stderr}`);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line on stderr:\n${result.stderr}`);
  assert.match(lines[0] as string, /^baton: /);
  assert.match(lines[0] as string, problem);
  assert.match(lines[0] as string, fix);
}

const STACK_TRACE = /^\s+at /m;

test("a disk that fills during a run ends it: one line, exit 2, no process left, no torn line; with space again the next command ends the log", { skip: MOUNT_SKIP }, async (t) => {
  const disk = await smallDisk(t, 6 * 1024 * 1024);
  const repo = await repoIn(disk);
  // The agent's command fills the disk; then the agent waits: a run that hung on the failed write would wait with it.
  const script = await writeScript(repo, "fill.json", [
    { say: "filling the disk" },
    { run: "head -c 100000000 /dev/zero > big.bin" },
    { say: "the disk is full now" },
    { sleep: 600_000 },
  ]);

  const result = await runBaton(repo, ["run", "Fill the disk", "--agent", "fake", "--script", script, "--json"]);

  assertOneLineError(result, /the disk is full/, /free some space/);
  await waitFor("every process of the run to end", () => liveProcessesUnder(repo).length === 0, 10_000);
  const runId = await onlyRunId(repo);
  const text = await readEventsText(repo, runId);
  assert.ok(text === "" || text.endsWith("\n"), "the log ends with a whole line");
  assert.equal((await readEvents(repo, runId)).filter((event) => isFinalType(event.type)).length, 0, "no final event could be written");

  // While the disk is still full, other commands say so in one line too (or work, if they need no space).
  for (const args of [["runs"], ["show", "1"], ["events", "1"]]) {
    const full = await runBaton(repo, args);
    assert.doesNotMatch(full.stderr, STACK_TRACE, `baton ${args.join(" ")}: ${full.stderr}`);
    if (full.code !== 0) assertOneLineError(full, /the disk is full/, /free some space/);
  }

  await rm(join(await workspacePath(repo, runId), "big.bin"));
  const runs = await runBaton(repo, ["runs"]);
  assert.equal(runs.code, 0, runs.stderr);
  assert.match(runs.stdout, new RegExp(`^1 +${runId} +failed +`, "m"));
  const events = await readEvents(repo, runId);
  const final = events.at(-1);
  assert.equal(final?.type, "run.failed");
  assert.equal((final?.data["error"] as { code: string }).code, "interrupted");
  assert.deepEqual(openStartsOf(events), [], "every start has its end");
  // The suite checks every log it leaves: this one too, once the small disk is gone.
  await cp(join(repo, ".baton", "runs"), join(await testTempDir("small-disk-logs-"), ".baton", "runs"), { recursive: true });
});

/** Makes `.baton/` read-only: a read-only bind mount as root (root ignores permissions), else the permissions. */
async function makeReadOnly(t: TestContext, batonDir: string): Promise<void> {
  if (process.getuid?.() === 0) {
    execFileSync("mount", ["--bind", "-o", "ro", batonDir, batonDir]);
    t.after(() => execFileSync("umount", ["-l", batonDir]));
  } else {
    execFileSync("chmod", ["-R", "a-w", batonDir]);
    t.after(() => execFileSync("chmod", ["-R", "u+w", batonDir]));
  }
}

test("every command on a read-only .baton/ says so in one line and how to fix it, exit 2", { skip: process.getuid?.() === 0 ? MOUNT_SKIP : false }, async (t) => {
  const repo = await repoIn(await testTempDir("cli-read-only-"));
  const script = await writeScript(repo, "hello.json", [{ write: { path: "hello.txt", content: "hi\n" } }]);
  assert.equal((await runBaton(repo, ["run", "Say hello", "--script", script])).code, 0);
  const runId = await onlyRunId(repo);
  await makeReadOnly(t, join(repo, ".baton"));

  const commands = [["runs"], ["show", "1"], ["events", "1"], ["events"], ["run", "Again", "--script", script], ["cancel", "1"], ["diff", "1"], ["trace", "1", "c_1"], ["clean"], ["serve", "--port", "0"]];
  for (const args of commands) {
    const result = await runBaton(repo, args);
    assert.doesNotMatch(result.stderr, STACK_TRACE, `baton ${args.join(" ")}: ${result.stderr}`);
    assertOneLineError(result, /cannot be written/, /make \.baton\/ writable/);
  }
  assert.deepEqual(await readdir(join(repo, ".baton", "runs")), [runId], "nothing was created");
});

for (const [damage, spoil] of [
  ["random bytes", (bytes: Buffer) => Buffer.from(bytes.map(() => Math.floor(Math.random() * 256)))],
  ["a truncated file", (bytes: Buffer) => bytes.subarray(0, 4096 + 100)],
] as const) {
  test(`an index.db of ${damage} is set aside, kept, and rebuilt from the logs: commands work, one warning line`, async () => {
    const repo = await repoIn(await testTempDir("cli-corrupt-index-"));
    const script = await writeScript(repo, "hello.json", [{ write: { path: "hello.txt", content: "hi\n" } }]);
    for (const task of ["First", "Second"]) assert.equal((await runBaton(repo, ["run", task, "--script", script])).code, 0);
    const before = (await runBaton(repo, ["runs"])).stdout;
    const index = join(repo, ".baton", "index.db");
    const damaged = spoil(await readFile(index));
    await rm(`${index}-wal`, { force: true });
    await rm(`${index}-shm`, { force: true });
    await writeFile(index, damaged);

    const runs = await runBaton(repo, ["runs"]);

    assert.equal(runs.code, 0, runs.stderr);
    assert.equal(runs.stdout, before, "the rebuilt index lists the same runs");
    assert.doesNotMatch(runs.stderr, STACK_TRACE);
    const warnings = runs.stderr.trimEnd().split("\n");
    assert.equal(warnings.length, 1, runs.stderr);
    assert.match(warnings[0] as string, /index\.db was damaged \(.+\): moved to .+index\.db\.corrupt-.+ for inspection; a new index is built from the run logs/);
    const aside = (await readdir(join(repo, ".baton"))).filter((name) => name.startsWith("index.db.corrupt-"));
    assert.equal(aside.length, 1);
    assert.deepEqual(await readFile(join(repo, ".baton", aside[0] as string)), damaged, "the damaged file is kept as it was");
    const show = await runBaton(repo, ["show", "2"]);
    assert.equal(show.code, 0, show.stderr);
    assert.equal(show.stderr, "", "the next command finds a sound index");
  });
}
