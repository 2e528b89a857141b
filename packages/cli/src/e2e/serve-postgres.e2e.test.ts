import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { testDatabase } from "@baton/engine/store/postgres-testing";
import { SseReader } from "@baton/server/testing";
import { makeRepo, servedAt, startBaton, writeScript, type ServeAddress } from "./cli-harness.ts";
import { storeEnv } from "./dispatch-harness.ts";

/** A `baton serve` on the shared store, in a repository of its own (as on another machine): its base URL and token. */
async function serveOn(t: TestContext, url: string, prefix: string): Promise<ServeAddress> {
  const folder = await makeRepo(prefix);
  const server = startBaton(folder, ["serve", "--port", "0"], { env: storeEnv(url) });
  t.after(() => server.kill());
  return servedAt(server);
}

const seqsOf = (reader: SseReader) => reader.events<{ seq: number; type: string }>().map((event) => event.seq);

test("two baton serve on one PostgreSQL store: an SSE client that loses one resumes on the other with its last id, the run's events and the feed's each once, in order", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const repo = await makeRepo("cli-serve-pg-");
  const gate = join(repo, "go-on");
  const script = await writeScript(repo, "wait.json", [{ say: "before the switch" }, { wait_for: gate }, { say: "after the switch" }]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--require-output", "none"], { env: storeEnv(url) });
  t.after(() => run.kill());
  const [first, second] = await Promise.all([serveOn(t, url, "cli-serve-pg-a-"), serveOn(t, url, "cli-serve-pg-b-")]);

  // On the first server, up to the agent's turn (it then waits for the gate file).
  const runOnFirst = await SseReader.open(`${first.base}/api/runs/1/stream`, first.auth);
  const feedOnFirst = await SseReader.open(`${first.base}/api/stream`, first.auth);
  assert.equal(runOnFirst.status, 200);
  await runOnFirst.waitFor("the agent's turn on the first server", () => runOnFirst.events<{ type: string }>().some((event) => event.type === "turn.started"));
  await feedOnFirst.waitFor("the feed to reach the agent's turn", () => feedOnFirst.events<{ type: string }>().some((event) => event.type === "turn.started"));
  runOnFirst.close();
  feedOnFirst.close();
  const runSeen = seqsOf(runOnFirst);
  const feedSeen = feedOnFirst.events();
  const lastSeq = runSeen.at(-1) as number;
  const lastPos = feedSeen.at(-1)?.__id as number;

  // The rest, from the other server, resumed by Last-Event-ID as an EventSource does.
  const runOnSecond = await SseReader.open(`${second.base}/api/runs/1/stream`, { ...second.auth, "last-event-id": String(lastSeq) });
  const feedOnSecond = await SseReader.open(`${second.base}/api/stream`, { ...second.auth, "last-event-id": String(lastPos) });
  await writeFile(gate, "");
  await runOnSecond.ended;
  assert.equal((await run.done).code, 0);
  const finalSeq = runOnSecond.events<{ type: string; seq: number }>().find((event) => event.type === "run.completed")?.seq;
  assert.ok(finalSeq !== undefined, "the second server streamed the run to its end");
  assert.deepEqual([...runSeen, ...seqsOf(runOnSecond)], Array.from({ length: finalSeq }, (_, index) => index + 1), "every event of the run once, in order, across the two servers");
  await feedOnSecond.waitFor("the feed to reach the run's end", () => feedOnSecond.events<{ type: string }>().some((event) => event.type === "run.completed"));
  feedOnSecond.close();
  const feed = [...feedSeen, ...feedOnSecond.events()];
  assert.deepEqual(
    feed.map((event) => event.__id),
    Array.from({ length: feed.length }, (_, index) => index + 1),
    "every feed position once, in order, across the two servers",
  );
  assert.deepEqual(feed.map((event) => (event as { seq?: number }).seq), Array.from({ length: finalSeq }, (_, index) => index + 1), "the feed holds the run's events in seq order");
});
