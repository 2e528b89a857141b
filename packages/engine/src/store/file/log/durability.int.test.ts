import assert from "node:assert/strict";
import { constants as fsConstants } from "node:fs";
import { readdir, readFile, readlink, realpath } from "node:fs/promises";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { nodeLogFileSystem, type LogFileSystem } from "./log-file-system.ts";
import { openStore } from "../open-store.ts";
import { collect, makeBatonDir, range } from "../test-fixtures/temp-store.ts";

/** A file system whose fsyncs wait for the test to let them through, and which records how far they reached. */
function gatedFileSystem() {
  let written = 0;
  let synced = 0;
  const waiting: (() => void)[] = [];
  let onWaiting: (() => void) | undefined;
  const fileSystem: LogFileSystem = {
    async write(fd, buffer, position) {
      await nodeLogFileSystem.write(fd, buffer, position);
      written = Math.max(written, position + buffer.byteLength);
    },
    async datasync(fd) {
      const upTo = written;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        onWaiting?.();
      });
      await nodeLogFileSystem.datasync(fd);
      synced = upTo;
    },
  };
  return {
    fileSystem,
    synced: () => synced,
    /** Resolves when an fsync is waiting. */
    fsyncStarted: () => new Promise<void>((resolve) => (waiting.length > 0 ? resolve() : (onWaiting = resolve))),
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
  };
}

test("durable before delivered: nobody sees an event before the fsync of its batch returns", async (t) => {
  const batonDir = await makeBatonDir(t);
  const gate = gatedFileSystem();
  await using store = await openStore(batonDir, { fileSystem: gate.fileSystem });
  await using otherProcessView = await openStore(batonDir);
  const writer = await store.createRun();
  const delivered: { event: Envelope; synced: number }[] = [];
  writer.subscribe((event) => delivered.push({ event, synced: gate.synced() }));
  let durable = false;
  const appended = range(1, 5).map((index) => writer.append("log", { level: "info", message: `m${index}` }));
  void appended[4]?.durable.then(() => (durable = true));

  await gate.fsyncStarted();
  // The bytes are written, their fsync has not returned: nothing may be visible anywhere.
  assert.equal(delivered.length, 0);
  assert.equal(durable, false);
  assert.equal((await store.getRun(writer.runId))?.committed_bytes, 0);
  assert.deepEqual(await collect(otherProcessView.readRun(writer.runId)), []);
  assert.deepEqual(await collect(otherProcessView.readFeed()), []);

  gate.releaseAll();
  await writer.flush();
  assert.equal(durable, true);
  assert.deepEqual(delivered.map(({ event }) => event.seq), range(1, 5));
  // Each delivered event ends within the bytes that had been synced when it was delivered.
  const lines = (await readFile(store.eventsPath(writer.runId), "utf8")).split("\n");
  let end = 0;
  for (const [index, { synced }] of delivered.entries()) {
    end += Buffer.byteLength(lines[index] ?? "") + 1;
    assert.ok(synced >= end, `event ${index + 1} delivered with ${synced} bytes synced, it ends at ${end}`);
  }
  assert.equal((await collect(otherProcessView.readRun(writer.runId))).length, 5);

  const closing = writer.close();
  gate.releaseAll();
  await closing;
});

test("a failed fsync breaks the writer loudly: durable, flush, append and close all report it", async (t) => {
  const batonDir = await makeBatonDir(t);
  let fail = false;
  const fileSystem: LogFileSystem = {
    write: nodeLogFileSystem.write,
    async datasync(fd) {
      if (fail) throw Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
      await nodeLogFileSystem.datasync(fd);
    },
  };
  await using store = await openStore(batonDir, { fileSystem });
  const writer = await store.createRun();
  await writer.append("log", { level: "info", message: "fine" }).durable;
  const delivered: Envelope[] = [];
  writer.subscribe((event) => delivered.push(event));
  fail = true;
  const doomed = writer.append("log", { level: "info", message: "doomed" });
  await assert.rejects(doomed.durable, { code: "store_write_failed" });
  await assert.rejects(writer.flush(), { code: "store_write_failed" });
  assert.throws(() => writer.append("log", { level: "info", message: "more" }), { code: "store_write_failed" });
  await assert.rejects(writer.close(), { code: "store_write_failed" });
  assert.deepEqual(delivered, [], "a batch whose fsync failed is never delivered");
  assert.equal((await store.getRun(writer.runId))?.last_seq, 1);
  // The lock was released: the run can be taken over and recovered.
  fail = false;
  const recovered = await store.recoverIfAbandoned(writer.runId);
  assert.equal(recovered?.event.type, "run.failed");
});

/** The `flags` of this process's descriptors open on `file` (octal, from /proc/self/fdinfo). */
async function openFlagsOf(file: string): Promise<number[]> {
  const flags: number[] = [];
  for (const fd of await readdir("/proc/self/fd")) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (target !== file) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, "utf8").catch(() => "");
    const octal = /^flags:\s+([0-7]+)$/m.exec(info)?.[1];
    if (octal !== undefined) flags.push(Number.parseInt(octal, 8));
  }
  return flags;
}

test("the store's own file system writes a log through O_DSYNC: one write per batch, no fdatasync call", { skip: process.platform !== "linux" && "reads /proc" }, async (t) => {
  const batonDir = await makeBatonDir(t);
  await using store = await openStore(batonDir);
  const writer = await store.createRun();
  await writer.append("log", { level: "info", message: "one" }).durable;
  const flags = await openFlagsOf(await realpath(store.eventsPath(writer.runId)));
  assert.equal(flags.length, 1, "the writer holds one descriptor on its log");
  assert.ok(((flags[0] ?? 0) & fsConstants.O_DSYNC) === fsConstants.O_DSYNC, `flags ${flags[0]?.toString(8)} have O_DSYNC`);
  await writer.close();
  // Reopened to resume: the same.
  const resumed = await store.openWriter(writer.runId);
  const reopened = await openFlagsOf(await realpath(store.eventsPath(writer.runId)));
  assert.ok(((reopened[0] ?? 0) & fsConstants.O_DSYNC) === fsConstants.O_DSYNC);
  await resumed.close();
});

test("with synchronous writes, nobody sees an event before its batch's write returns, and no fdatasync is called", async (t) => {
  const batonDir = await makeBatonDir(t);
  const waiting: (() => void)[] = [];
  let onWaiting: (() => void) | undefined;
  let datasyncs = 0;
  const fileSystem: LogFileSystem = {
    synchronousWrites: true,
    async write(fd, buffer, position) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        onWaiting?.();
      });
      await nodeLogFileSystem.write(fd, buffer, position);
    },
    async datasync(fd) {
      datasyncs += 1;
      await nodeLogFileSystem.datasync(fd);
    },
  };
  await using store = await openStore(batonDir, { fileSystem });
  const writer = await store.createRun();
  const delivered: Envelope[] = [];
  writer.subscribe((event) => delivered.push(event));
  const event = writer.append("log", { level: "info", message: "held" });
  let durable = false;
  void event.durable.then(() => (durable = true));
  await new Promise<void>((resolve) => (waiting.length > 0 ? resolve() : (onWaiting = resolve)));
  // The write is held: not durable, not delivered, not in the index, not readable.
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(durable, false);
  assert.equal(delivered.length, 0, "not delivered");
  assert.equal((await store.getRun(writer.runId))?.last_seq ?? 0, 0);
  assert.deepEqual(await collect(store.readRun(writer.runId)), []);
  waiting.splice(0).forEach((release) => release());
  await event.durable;
  assert.deepEqual(delivered.map((each) => each.seq), [1]);
  onWaiting = () => waiting.splice(0).forEach((release) => release());
  await writer.close();
  assert.equal(datasyncs, 0);
});
