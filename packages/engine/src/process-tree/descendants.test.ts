import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { listsChildren, readDescendants } from "./proc-table.ts";
import { ProcessTree } from "./process-tree.ts";

type FakeProc = { pid: number; ppid: number; session: number; startTime: number; threads?: Record<number, number[]> };

/** A `/proc` of the given processes: each one's stat, and (when `withChildren`) each thread's children list. */
async function fakeProc(procs: FakeProc[], withChildren: boolean): Promise<string> {
  const dir = await testTempDir("fake-proc-");
  for (const proc of procs) {
    // Fields 3 to 22: state, ppid, pgrp, session, 15 others, start time.
    const fields = ["S", proc.ppid, proc.session, proc.session, ...Array.from({ length: 15 }, () => 0), proc.startTime];
    await mkdir(join(dir, String(proc.pid)), { recursive: true });
    await writeFile(join(dir, String(proc.pid), "stat"), `${proc.pid} (a (b) c) ${fields.join(" ")}\n`);
    if (!withChildren) continue;
    for (const [tid, children] of Object.entries(proc.threads ?? { [proc.pid]: [] })) {
      await mkdir(join(dir, String(proc.pid), "task", tid), { recursive: true });
      await writeFile(join(dir, String(proc.pid), "task", tid, "children"), children.map((child) => `${child} `).join(""));
    }
  }
  return dir;
}

const pids = (entries: Iterable<{ pid: number }>) => [...entries].map((entry) => entry.pid).sort((a, b) => a - b);

// The root (100) leads its session; 101 was forked by one of its threads, 102 (which left the
// session) by 101's second thread. 300 is in the root's session but no descendant (an orphan
// re-parented to init); 200 is another process altogether.
const machine: FakeProc[] = [
  { pid: 1, ppid: 0, session: 1, startTime: 1, threads: { 1: [200, 300] } },
  { pid: 100, ppid: 1, session: 100, startTime: 50, threads: { 100: [], 107: [101] } },
  { pid: 101, ppid: 100, session: 100, startTime: 60, threads: { 101: [], 108: [102] } },
  { pid: 102, ppid: 101, session: 102, startTime: 61 },
  { pid: 200, ppid: 1, session: 200, startTime: 70 },
  { pid: 300, ppid: 1, session: 100, startTime: 80 },
];

test("a look follows the tree's children, thread by thread, and reads no other process", async () => {
  const procDir = await fakeProc(machine, true);
  assert.equal(listsChildren(100, procDir), true);
  assert.deepEqual(pids(readDescendants([100], procDir).values()), [100, 101, 102]);
  assert.deepEqual(pids(readDescendants([102, 555], procDir).values()), [102], "a root that has gone is left out");
  using tree = ProcessTree.track(100, { scanMs: 3_600_000, procDir });
  assert.ok(tree !== undefined);
  assert.deepEqual(pids(tree.scan()), [100, 101, 102], "the orphan in the session is left to killAll's whole-table look");
});

test("where the kernel lists no children, a look reads every process, and the session's orphan is a member", async () => {
  const procDir = await fakeProc(machine, false);
  assert.equal(listsChildren(100, procDir), false);
  using tree = ProcessTree.track(100, { scanMs: 3_600_000, procDir });
  assert.deepEqual(pids(tree?.scan() ?? []), [100, 101, 102, 300]);
});
