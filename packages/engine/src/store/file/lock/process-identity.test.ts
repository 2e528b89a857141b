import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { currentProcess, livenessOf, parseProcStat, processStartTime } from "./process-identity.ts";

test("parseProcStat counts fields from the last parenthesis: a command name may hold spaces and parentheses", () => {
  const tail = Array.from({ length: 30 }, (_, index) => String(index + 4)).join(" ");
  // Field 22 is the 20th after the state: with fields 4.. numbered as their own index, it reads 22.
  const stat = parseProcStat(`1234 (evil) (name ) x) S ${tail}`);
  assert.deepEqual(stat, { state: "S", startTime: 22 });
  assert.equal(parseProcStat("garbage"), undefined);
});

test("this process is alive, with a start time", () => {
  const self = currentProcess();
  assert.equal(typeof processStartTime(process.pid), "number");
  assert.equal(livenessOf(self), "alive");
});

test("a process that exited is dead; a recycled pid (other start time) is dead; another host is unknown", async () => {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  const self = currentProcess();
  assert.equal(livenessOf({ ...self, pid: child.pid! }), "dead");
  assert.equal(livenessOf({ ...self, start_time: (self.start_time ?? 0) + 1 }), "dead");
  assert.equal(livenessOf({ ...self, host: `${self.host}-elsewhere` }), "unknown");
});
