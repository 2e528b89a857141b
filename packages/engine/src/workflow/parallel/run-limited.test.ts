import assert from "node:assert/strict";
import { test } from "node:test";
import { runLimited } from "./run-limited.ts";

/** Work that finishes when the test says so: the order of starts and ends is then the test's, not the clock's. */
function gatedWork() {
  const log: string[] = [];
  const release = new Map<number, () => void>();
  let open = 0;
  let most = 0;
  const work = async (item: string, index: number) => {
    open += 1;
    most = Math.max(most, open);
    log.push(`+${item}`);
    await new Promise<void>((resolve) => release.set(index, resolve));
    open -= 1;
    log.push(`-${item}`);
  };
  return { log, release, work, most: () => most };
}

test("items start in order, at most `limit` at a time, the next when one ends", async () => {
  const gated = gatedWork();
  const done = runLimited(["a", "b", "c", "d"], 2, gated.work);
  await Promise.resolve();
  assert.deepEqual(gated.log, ["+a", "+b"]);
  gated.release.get(1)?.();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(gated.log, ["+a", "+b", "-b", "+c"]);
  for (const index of [0, 2]) gated.release.get(index)?.();
  await new Promise((resolve) => setImmediate(resolve));
  gated.release.get(3)?.();
  await done;
  assert.deepEqual(gated.log.filter((entry) => entry.startsWith("+")), ["+a", "+b", "+c", "+d"]);
  assert.equal(gated.most(), 2);
});

test("a throw is passed on only once every other item has finished", async () => {
  const finished: string[] = [];
  const run = runLimited(["bad", "good"], 2, async (item) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (item === "bad") throw new Error("bad item");
    await new Promise((resolve) => setImmediate(resolve));
    finished.push(item);
  });
  await assert.rejects(run, /bad item/);
  assert.deepEqual(finished, ["good"]);
});
