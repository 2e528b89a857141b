import assert from "node:assert/strict";
import { test } from "node:test";
import { parseProcStat, type ProcEntry } from "./proc-table.ts";
import { findMembers, type TreeMarks } from "./process-tree.ts";

/** A process: pid, parent, session and group (default: its parent's), start time. */
function proc(pid: number, ppid: number, startTime: number, ids: { session?: number; pgrp?: number; state?: string } = {}): ProcEntry {
  return { pid, ppid, startTime, session: ids.session ?? 1, pgrp: ids.pgrp ?? ids.session ?? 1, state: ids.state ?? "S" };
}

const tableOf = (...entries: ProcEntry[]) => new Map(entries.map((entry) => [entry.pid, entry]));

/** The marks of a tree whose root (pid 100, started at 50) leads its own session, as a detached agent does. */
function rootMarks(): TreeMarks {
  return { members: new Map([[100, 50]]), leaders: new Map([[100, 50]]) };
}

const pids = (entries: ProcEntry[]) => entries.map((entry) => entry.pid).sort((a, b) => a - b);

test("parseProcStat reads pid, state, parent, group, session and start time, counting from the last parenthesis", () => {
  const tail = Array.from({ length: 30 }, (_, index) => String(index + 7)).join(" ");
  assert.deepEqual(parseProcStat(`1234 (evil) (name ) x) S 1 1234 1200 ${tail}`), { pid: 1234, state: "S", ppid: 1, pgrp: 1234, session: 1200, startTime: 22 });
  assert.equal(parseProcStat("garbage"), undefined);
});

test("the root, its descendants at any depth and whatever stays in its session belong to the tree; nothing else does", () => {
  const table = tableOf(
    proc(1, 0, 1),
    proc(90, 1, 40),
    proc(100, 90, 50, { session: 100 }),
    proc(101, 100, 60, { session: 100 }),
    // Left the session and the group (setsid): found by its parent.
    proc(102, 101, 61, { session: 102 }),
    proc(103, 102, 62, { session: 102 }),
    // An orphan re-parented to init that stayed in the agent's session.
    proc(104, 1, 63, { session: 100 }),
    proc(200, 90, 70),
  );
  assert.deepEqual(pids(findMembers(table, rootMarks())), [100, 101, 102, 103, 104]);
});

test("a descendant seen once is still a member after its parent exited and it was re-parented, in a session of its own", () => {
  const marks = rootMarks();
  findMembers(tableOf(proc(100, 1, 50, { session: 100 }), proc(101, 100, 60, { session: 101 }), proc(102, 101, 61, { session: 101 })), marks);
  // The agent and the command's shell have gone; the command is init's child now.
  const later = tableOf(proc(1, 0, 1), proc(102, 1, 61, { session: 101 }), proc(105, 102, 80, { session: 101 }));
  assert.deepEqual(pids(findMembers(later, marks)), [102, 105]);
});

test("a recycled pid is never a member: a remembered pid, a parent or a session leader with another start time", () => {
  const marks = rootMarks();
  findMembers(tableOf(proc(100, 1, 50, { session: 100 }), proc(101, 100, 60, { session: 101 })), marks);
  const recycled = tableOf(
    proc(1, 0, 1),
    // Both pids now name other processes, with other start times, and so does their session.
    proc(100, 1, 500, { session: 100 }),
    proc(101, 1, 501, { session: 101 }),
    proc(300, 101, 502, { session: 101 }),
  );
  assert.deepEqual(findMembers(recycled, marks), []);
  assert.deepEqual([...marks.members.keys()], [], "the recycled pids are forgotten");
});

test("a child that would have started before its parent is not the parent's: its pid was the parent's before", () => {
  const table = tableOf(proc(100, 1, 50, { session: 100 }), proc(101, 100, 40, { session: 7 }));
  assert.deepEqual(pids(findMembers(table, rootMarks())), [100]);
});

test("a tagged process belongs however it got where it is", () => {
  const table = tableOf(proc(1, 0, 1), proc(100, 1, 50, { session: 100 }), proc(400, 1, 90, { session: 400 }), proc(401, 1, 91, { session: 401 }));
  assert.deepEqual(pids(findMembers(table, rootMarks(), (entry) => entry.pid === 400)), [100, 400]);
});
