import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../../errors.ts";
import { openStore } from "./open-store.ts";
import { makeBatonDir } from "./test-fixtures/temp-store.ts";

const ids = ["run_01JD7Q2W3E4R5T6Y7V8W9X0AAA", "run_01JD7Q2W3E4R5T6Y7V8W9X0AAB", "run_01JD8ZZZZZZZZZZZZZZZZZZZZZ"];

async function storeWithRuns(t: Parameters<typeof makeBatonDir>[0]) {
  const queue = [...ids];
  const store = await openStore(await makeBatonDir(t), { newRunId: () => queue.shift() ?? "" });
  for (let index = 0; index < ids.length; index += 1) await (await store.createRun()).close();
  return store;
}

test("resolveRun finds a run by number, full id, and unique prefix, with or without run_, in any case", async (t) => {
  await using store = await storeWithRuns(t);
  assert.equal((await store.resolveRun("2")).id, ids[1]);
  assert.equal((await store.resolveRun(ids[2]!)).number, 3);
  assert.equal((await store.resolveRun("01JD8")).id, ids[2]);
  assert.equal((await store.resolveRun("run_01jd8")).id, ids[2]);
  assert.equal((await store.resolveRun("RUN_01JD7Q2W3E4R5T6Y7V8W9X0AAB")).id, ids[1]);
  // Crockford base32: O reads as 0, I and L as 1.
  assert.equal((await store.resolveRun("OIJD8")).id, ids[2]);
});

test("resolveRun: an unknown ref is run_not_found with a hint", async (t) => {
  await using store = await storeWithRuns(t);
  for (const ref of ["9", "01JE", "run_", "not an id!", ""]) {
    await assert.rejects(() => store.resolveRun(ref), (error) => {
      assert.ok(isBatonError(error));
      assert.equal(error.code, "run_not_found");
      assert.equal(error.hint, "list runs with `baton runs`");
      return true;
    }, ref);
  }
});

test("resolveRun: an ambiguous prefix is ambiguous_run naming the candidates", async (t) => {
  await using store = await storeWithRuns(t);
  await assert.rejects(() => store.resolveRun("01JD7"), (error) => {
    assert.ok(isBatonError(error));
    assert.equal(error.code, "ambiguous_run");
    assert.match(error.message, /#1 run_01JD7Q2W3E4R5T6Y7V8W9X0AAA/);
    assert.match(error.message, /#2 run_01JD7Q2W3E4R5T6Y7V8W9X0AAB/);
    assert.deepEqual(error.details["candidates"], [ids[0], ids[1]]);
    return true;
  });
});
