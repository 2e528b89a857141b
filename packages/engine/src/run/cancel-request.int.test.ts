import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { cancelRequestPath, requestCancel, watchCancelRequest, type CancelRequest } from "./cancel-request.ts";

function nextRequest(runDir: string): { request: Promise<CancelRequest>; stop: () => void } {
  let stop = () => {};
  const request = new Promise<CancelRequest>((resolve) => {
    stop = watchCancelRequest(runDir, resolve);
  });
  return { request, stop };
}

test("a cancel request is left in the run's requests folder, and the run's watch reports it once", async () => {
  const runDir = await testTempDir("cancel-request-");
  const seen: CancelRequest[] = [];
  const stop = watchCancelRequest(runDir, (request) => seen.push(request));
  assert.ok(existsSync(join(runDir, "requests")), "the watch makes the folder it watches");
  const { request, stop: stopSecond } = nextRequest(runDir);
  await requestCancel(runDir, { by: "cli", reason: "enough" });
  assert.deepEqual(await request, { by: "cli", reason: "enough" });
  assert.equal(cancelRequestPath(runDir), join(runDir, "requests", "cancel-request.json"));
  assert.deepEqual(await readdir(join(runDir, "requests")), ["cancel-request.json"], "written aside, then renamed: nothing else is left");
  await requestCancel(runDir, { by: "api" });
  stopSecond();
  stop();
  assert.deepEqual(seen, [{ by: "cli", reason: "enough" }], "reported once, the first request's");
});

test("a request left before the watch starts, or one that cannot be read, still cancels", async () => {
  const before = await testTempDir("cancel-request-before-");
  await requestCancel(before, { by: "api" });
  const first = nextRequest(before);
  assert.deepEqual(await first.request, { by: "api" });
  first.stop();

  const garbled = await testTempDir("cancel-request-garbled-");
  const second = nextRequest(garbled);
  await mkdir(join(garbled, "requests"), { recursive: true });
  await writeFile(cancelRequestPath(garbled), "not json");
  assert.deepEqual(await second.request, { by: "unknown" });
  second.stop();
});
