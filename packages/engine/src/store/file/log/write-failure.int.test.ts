import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { nodeLogFileSystem, type LogFileSystem } from "./log-file-system.ts";
import { openStore } from "../open-store.ts";
import { makeBatonDir } from "../test-fixtures/temp-store.ts";

/** An errno error as node:fs raises it. */
function errnoError(code: string, text: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${text}, write`), { code, syscall: "write" });
}

/**
 * A file system whose next write, once armed, writes the first half of its buffer and then
 * fails: a disk that filled (or went read-only, or failed) in the middle of a batch.
 */
function failingMidWrite(error: NodeJS.ErrnoException): { fileSystem: LogFileSystem; arm: (on: boolean) => void } {
  let armed = false;
  return {
    arm: (on) => (armed = on),
    fileSystem: {
      async write(fd, buffer, position) {
        if (!armed) return nodeLogFileSystem.write(fd, buffer, position);
        await nodeLogFileSystem.write(fd, buffer.subarray(0, Math.floor(buffer.byteLength / 2)), position);
        throw error;
      },
      datasync: nodeLogFileSystem.datasync,
    },
  };
}

const cases = [
  { code: "ENOSPC", text: "no space left on device", says: /the disk is full/, hint: /free some space/ },
  { code: "EROFS", text: "read-only file system", says: /cannot be written/, hint: /make \.baton\/ writable/ },
  { code: "EIO", text: "i/o error", says: /I\/O error/, hint: /check the disk/ },
];

for (const { code, text, says, hint } of cases) {
  test(`${code} in the middle of a write: the writer stops, says why in one line, cuts the torn bytes and leaves a recoverable log`, async (t) => {
    const batonDir = await makeBatonDir(t);
    const { fileSystem, arm } = failingMidWrite(errnoError(code, text));
    await using store = await openStore(batonDir, { fileSystem });
    const writer = await store.createRun({ task: "t", agent: "fake", repo: { root: "/", dirty: false } });
    writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" });
    await writer.flush();
    const committed = (await readFile(store.eventsPath(writer.runId))).byteLength;
    arm(true);

    const doomed = writer.append("log", { level: "info", message: "x".repeat(1000) });
    const error = await doomed.durable.then(
      () => assert.fail("the batch cannot be durable"),
      (reason: unknown) => reason as Error & { code: string; toLine(): string },
    );
    assert.equal(error.code, "store_write_failed");
    assert.match(error.toLine(), says);
    assert.match(error.toLine(), hint);
    assert.doesNotMatch(error.toLine(), /\n/);
    assert.equal(writer.failure.aborted, true, "the writer's failure signal tells the run to end");
    assert.equal(writer.failure.reason, error);
    assert.throws(() => writer.append("log", { level: "info", message: "more" }), { code: "store_write_failed" });
    await assert.rejects(writer.close(), { code: "store_write_failed" });
    assert.equal((await readFile(store.eventsPath(writer.runId))).byteLength, committed, "the half-written line is cut");

    // The disk is fine again: the next command ends the run, with nothing to repair.
    arm(false);
    const recovered = await store.recoverIfAbandoned(writer.runId);
    assert.equal(recovered?.event.type, "run.failed");
    assert.equal(recovered?.event.seq, 3);
    assert.deepEqual((await readdir(store.runDir(writer.runId))).filter((name) => name.includes("torn")), []);
  });
}
