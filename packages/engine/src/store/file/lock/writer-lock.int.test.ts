import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { isBatonError } from "../../../errors.ts";
import { currentProcess } from "./process-identity.ts";
import { openStore } from "../open-store.ts";
import { makeBatonDir, spawnFixture } from "../test-fixtures/temp-store.ts";

test("a second writer in the same process is refused with run_locked naming the pid", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  await assert.rejects(store.openWriter(writer.runId), (error) => {
    assert.ok(isBatonError(error));
    assert.equal(error.code, "run_locked");
    assert.match(error.message, new RegExp(`run ${writer.runId} is being written by pid ${process.pid}`));
    assert.ok(error.hint);
    return true;
  });
  await writer.close();
  const again = await store.openWriter(writer.runId);
  await again.close();
});

test("a writer in another process refuses ours; once it is killed, its stale lock is taken over", async (t) => {
  const batonDir = await makeBatonDir(t);
  const child = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const [, runId, pid] = (await child.line()).split(" ");
  assert.ok(runId !== undefined && pid !== undefined);
  await using store = await openStore(batonDir);
  await assert.rejects(store.openWriter(runId), (error) => {
    assert.ok(isBatonError(error));
    assert.equal(error.code, "run_locked");
    assert.match(error.message, new RegExp(`pid ${pid}`));
    return true;
  });
  child.process.kill("SIGKILL");
  await child.exited;
  const lockBefore = JSON.parse(await readFile(path.join(store.runDir(runId), "writer.lock"), "utf8")) as { pid: number };
  assert.equal(lockBefore.pid, Number(pid), "a killed writer leaves its lock behind");
  const writer = await store.openWriter(runId);
  assert.equal(writer.lastSeq, 2);
  const lockAfter = JSON.parse(await readFile(path.join(store.runDir(runId), "writer.lock"), "utf8")) as { pid: number };
  assert.equal(lockAfter.pid, process.pid);
  await writer.close();
});

test("a lock whose pid now belongs to a process with another start time is stale", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const first = await store.createRun();
  const runId = first.runId;
  await first.close();
  const self = currentProcess();
  // Our own pid, but not our start time: the pid was recycled since the lock was written.
  const recycled = { ...self, start_time: (self.start_time ?? 0) + 1, token: "old", acquired_at: "2026-01-01T00:00:00.000Z" };
  await writeFile(path.join(store.runDir(runId), "writer.lock"), JSON.stringify(recycled));
  const writer = await store.openWriter(runId);
  await writer.close();
});

test("when several processes race to take over a stale lock, exactly one wins", async (t) => {
  const batonDir = await makeBatonDir(t);
  const holder = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const [, runId] = (await holder.line()).split(" ");
  assert.ok(runId !== undefined);
  holder.process.stdin?.write("crash\n");
  await holder.exited;
  const racers = Array.from({ length: 4 }, () => spawnFixture(t, "hold-writer.ts", [batonDir, runId]));
  const outcomes = await Promise.all(racers.map((racer) => racer.line()));
  const winners = outcomes.filter((line) => line.startsWith("ready"));
  assert.equal(winners.length, 1, outcomes.join(" | "));
  assert.ok(outcomes.filter((line) => !line.startsWith("ready")).every((line) => line === "locked run_locked"), outcomes.join(" | "));
  // The losers exit by themselves once refused: writing to them could meet a closed pipe.
  racers.forEach((racer, index) => {
    if (outcomes[index]?.startsWith("ready")) racer.process.stdin?.write("close\n");
  });
  await Promise.all(racers.map((racer) => racer.exited));
});
