import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { test, type TestContext } from "node:test";
import { hasExited, readProcEntry } from "./proc-table.ts";
import { killRunLeftovers } from "./agent-tree-tag.ts";
import { ProcessTree } from "./process-tree.ts";

/** No periodic look during a test: each test says when the tree looks. */
const NEVER_MS = 3_600_000;

/** Starts `sh -c script` as Baton starts an agent (a session of its own); its first stdout line is returned. */
async function startRoot(t: TestContext, script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn("sh", ["-c", script], { detached: true, stdio: ["pipe", "pipe", "inherit"], env: { PATH: process.env["PATH"] ?? "", ...env } });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  assert.equal(first.done, false, "the root printed its line");
  return { child, line: first.value as string };
}

/** A process the test started in the background; killed after the test if it is still there. */
function leftover(t: TestContext, pid: number): number {
  t.after(() => {
    if (isRunning(pid)) process.kill(pid, "SIGKILL");
  });
  return pid;
}

function isRunning(pid: number): boolean {
  const entry = readProcEntry(pid);
  return entry !== undefined && !hasExited(entry);
}

/** `setsid` may not have run yet when its pid is printed: wait until the process leads a session. */
async function inSessionOfItsOwn(pid: number): Promise<void> {
  while (readProcEntry(pid)?.session !== pid) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function waitGone(pid: number): Promise<void> {
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

test("a command that left the agent's session, its parent gone, dies with the tree it was seen in; other processes live", async (t) => {
  const bystander = spawn("sleep", ["300"], { stdio: "ignore" });
  t.after(() => bystander.kill("SIGKILL"));
  // `env -i` drops every variable: only what the tree saw can find this one.
  const { child, line } = await startRoot(t, "env -i setsid sleep 300 & echo $!; wait");
  const sleeper = leftover(t, Number(line));
  await inSessionOfItsOwn(sleeper);
  using tree = ProcessTree.track(child.pid!, { scanMs: NEVER_MS });
  assert.ok(tree !== undefined);
  assert.ok(tree.scan().some((entry) => entry.pid === sleeper), "the look sees the command below the root");

  child.kill("SIGKILL");
  await once(child, "exit");
  assert.ok(isRunning(sleeper), "the command outlives its parent, re-parented");
  assert.equal(tree.killAll(), 1);
  await waitGone(sleeper);
  assert.ok(isRunning(bystander.pid!), "a process outside the tree is left alone");
});

test("a process carrying the tree's tag is found though no look ever saw it", async (t) => {
  const tag = { name: "BATON_AGENT_TREE", value: "test-tag" };
  const { child, line } = await startRoot(t, "setsid sleep 300 & echo $!; read line", { BATON_AGENT_TREE: "test-tag" });
  const sleeper = leftover(t, Number(line));
  await inSessionOfItsOwn(sleeper);
  using untagged = ProcessTree.track(child.pid!, { scanMs: NEVER_MS });
  using tagged = ProcessTree.track(child.pid!, { scanMs: NEVER_MS, tag });
  assert.ok(untagged !== undefined && tagged !== undefined);
  child.stdin?.end("\n");
  await once(child, "exit");

  assert.equal(untagged.killAll(), 0, "without the tag, nothing tells the orphan in its own session apart");
  assert.ok(isRunning(sleeper));
  assert.equal(tagged.killAll(), 1);
  await waitGone(sleeper);
});

test("a tree that keeps forking while it is killed is killed whole", async (t) => {
  // A loop that starts a new process every few milliseconds, in the root's session.
  const { child } = await startRoot(t, "echo up; while true; do sleep 300 & sleep 0.01; done");
  using tree = ProcessTree.track(child.pid!, { scanMs: NEVER_MS });
  assert.ok(tree !== undefined);
  let members: number[] = [];
  while ((members = tree.scan().map((entry) => entry.pid)).length < 4) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const pid of members) leftover(t, pid);
  assert.ok(tree.killAll() >= 2);
  for (const pid of members) await waitGone(pid);
  assert.deepEqual(tree.scan().filter((entry) => !hasExited(entry)), [], "nothing of the tree is left");
});

test("what a run's agents left behind is found by the run's tag after the tracker is gone, and only that", async (t) => {
  const start = async (value: string) => {
    const { line } = await startRoot(t, "setsid sleep 300 & echo $!", { BATON_AGENT_TREE: value });
    return leftover(t, Number(line));
  };
  const ours = await start("run_01JD7Q2W3E4R5T6Y7U8I9O0P1A/1");
  const other = await start("run_01JD7Q2W3E4R5T6Y7U8I9O0P1B/2");

  assert.equal(killRunLeftovers("run_01JD7Q2W3E4R5T6Y7U8I9O0P1A"), 1);
  await waitGone(ours);
  assert.ok(isRunning(other), "another run's process is left alone");
  assert.equal(killRunLeftovers("run_01JD7Q2W3E4R5T6Y7U8I9O0P1B", (readProcEntry(other)?.startTime ?? 0) + 1), 0, "nothing started before the run's writer");
});
