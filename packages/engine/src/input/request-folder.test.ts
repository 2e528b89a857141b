import assert from "node:assert/strict";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { leaveRequest, readRequest, removeStaleAnswers, watchRequests } from "./request-folder.ts";

test("the first request of a name wins: a second one, even at the same moment, finds it there and changes nothing", async () => {
  const dir = await testTempDir("requests-first-");
  const results = await Promise.all(["ada", "bob", "cy", "dee"].map((who) => leaveRequest(dir, "permission-abc.json", { who })));
  assert.equal(results.filter((result) => result === "written").length, 1);
  assert.equal(results.filter((result) => result === "exists").length, 3);
  const winner = ["ada", "bob", "cy", "dee"][results.indexOf("written")];
  assert.equal((await readRequest(dir, "permission-abc.json"))?.["who"], winner);
  await assert.rejects(leaveRequest(dir, "../escape.json", {}), /not a request file name/);
});

test("the watch reports each request once, those left before it started too", async () => {
  const dir = await testTempDir("requests-watch-");
  await leaveRequest(dir, "input-in_1.json", { id: "in_1" });
  const seen: string[] = [];
  const watch = watchRequests(dir, (name) => seen.push(name));
  try {
    await waitUntil(() => seen.length === 1);
    await leaveRequest(dir, "input-in_2.json", { id: "in_2" });
    await waitUntil(() => seen.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert.deepEqual(seen, ["input-in_1.json", "input-in_2.json"]);
  } finally {
    watch.stop();
  }
});

test("a request removed once taken is gone from the folder, and a new one of its name is reported again", async () => {
  const dir = await testTempDir("requests-remove-");
  const seen: string[] = [];
  const watch = watchRequests(dir, (name, body) => seen.push(`${name} ${String(body["who"])}`));
  try {
    await leaveRequest(dir, "permission-call_1.json", { who: "ada" });
    await waitUntil(() => seen.length === 1);
    await watch.remove("permission-call_1.json");
    assert.equal(await readRequest(dir, "permission-call_1.json"), undefined);
    assert.equal(await leaveRequest(dir, "permission-call_1.json", { who: "bob" }), "written", "the name is free again");
    await waitUntil(() => seen.length === 2);
    assert.deepEqual(seen, ["permission-call_1.json ada", "permission-call_1.json bob"]);
    await assert.rejects(watch.remove("../events.ndjson"), /not a request file name/);
  } finally {
    watch.stop();
  }
});

test("answers left for an earlier process of the run are removed; inputs stay for the next one to take", async () => {
  const dir = await testTempDir("requests-stale-");
  await leaveRequest(dir, "permission-call_1.json", { who: "ada" });
  await leaveRequest(dir, "input-in_1.json", { id: "in_1" });
  await removeStaleAnswers(dir);
  assert.equal(await readRequest(dir, "permission-call_1.json"), undefined);
  assert.equal((await readRequest(dir, "input-in_1.json"))?.["id"], "in_1");
  await removeStaleAnswers(await testTempDir("requests-none-"));
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
