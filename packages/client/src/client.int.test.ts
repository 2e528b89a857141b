// The client against a real `baton serve`: runs, and following a run and the feed across a
// server restart with neither a repeat nor a loss.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isFinalType } from "@baton/protocol/core";
import { makeGate } from "@baton/testkit/gate";
import { BatonApiError, BatonClient, type FollowItem } from "./index.ts";
import { freePort, makeProject, readLog, startServe, waitFor } from "@baton/testkit/baton-cli";

const TOKEN = "client-test-token-0123456789";

/** Reads the iterator into `seen` in the background; settles when it ends. */
function drain(items: AsyncGenerator<FollowItem>, seen: FollowItem[]): Promise<void> {
  return (async () => {
    for await (const item of items) seen.push(item);
  })();
}

/** The seqs of the durable events in the run's log. */
const loggedSeqs = async (repo: string, runId: string) => (await readLog(repo, runId)).map((event) => event.seq);

const ids = (seen: FollowItem[]) => seen.flatMap((item) => (item.type === "event" ? [item.id] : []));

test("the client starts, lists and shows a run, and follows it through a restart of the server mid-run: every event once, in order, to the final one", async () => {
  const repo = await makeProject("client-restart-");
  // The same port and token again after the restart: the server keeps its URL.
  const port = await freePort();
  const first = await startServe(repo, port, TOKEN);
  let server = first.server;
  const baton = BatonClient.fromUrl(first.url);
  const gate = await makeGate("after-restart");
  // On a failure, the followers stop and the run goes on to its end.
  const stop = new AbortController();
  try {
    const started = await baton.startRun({ task: "say two things", agent: "fake", script: [{ say: "Before the restart." }, gate.step, { say: "After the restart." }] });
    assert.equal((await baton.getRun(started.number)).id, started.id);
    assert.ok((await baton.listRuns()).runs.some((run) => run.id === started.id));

    const seen: FollowItem[] = [];
    const followed = drain(baton.followRun(started.id, { signal: stop.signal }), seen);
    const feed: FollowItem[] = [];
    const feedAbort = new AbortController();
    stop.signal.addEventListener("abort", () => feedAbort.abort());
    const feedFollowed = drain(baton.followFeed({ signal: feedAbort.signal }), feed).catch((error: unknown) => {
      if (!feedAbort.signal.aborted) throw error;
    });
    await waitFor("the agent's turn to start, as the follower shows (the run then waits at its gate)", () => seen.some((item) => item.type === "event" && item.event.type === "turn.started"));

    await server.kill();
    await gate.open();
    await waitFor("the run to end while the server is down", async () => (await loggedSeqs(repo, started.id)).length > ids(seen).length + 2);
    ({ server } = await startServe(repo, port, TOKEN));
    await followed;

    const logged = await loggedSeqs(repo, started.id);
    assert.deepEqual(ids(seen), logged, "the follower got the log's events, each once, in order");
    const last = seen.findLast((item) => item.type === "event");
    assert.ok(last?.type === "event" && isFinalType(last.event.type), "it ended with the final event");
    assert.equal(last.event.type, "run.completed");

    await waitFor("the feed to carry the whole run", () => feed.filter((item) => item.type === "event" && item.event.run === started.id).length === logged.length);
    feedAbort.abort();
    await feedFollowed;
    const positions = ids(feed);
    assert.deepEqual(positions, [...new Set(positions)].sort((a, b) => a - b), "feed positions once each, rising");
    assert.deepEqual(
      feed.flatMap((item) => (item.type === "event" && item.event.run === started.id ? [item.event.seq] : [])),
      logged,
    );

    // Following from where a reader stopped gives the rest only.
    const rest: FollowItem[] = [];
    await drain(baton.followRun(started.id, { after: logged.length - 2 }), rest);
    assert.deepEqual(ids(rest), logged.slice(-2));
    // From the final event there is nothing more: the server answers 204 and the iterator ends.
    const none: FollowItem[] = [];
    await drain(baton.followRun(started.id, { after: logged.length }), none);
    assert.deepEqual(none, []);
  } finally {
    stop.abort();
    await gate.open();
    await server.kill();
  }
});

test("a refusal is a BatonApiError with the server's status and code: a wrong token, an unknown run; a URL without its token is refused before any request", async () => {
  const repo = await makeProject("client-errors-");
  const { server, url } = await startServe(repo, await freePort(), TOKEN);
  try {
    const wrong = new BatonClient({ baseUrl: new URL(url).origin, token: "not-the-token-0123456789" });
    await assert.rejects(wrong.listRuns(), (error: unknown) => error instanceof BatonApiError && error.status === 401);
    await assert.rejects(drain(wrong.followFeed(), []), (error: unknown) => error instanceof BatonApiError && error.status === 401);
    const baton = BatonClient.fromUrl(url);
    await assert.rejects(baton.getRun(99), (error: unknown) => error instanceof BatonApiError && error.status === 404 && error.code.length > 0);
    await assert.rejects(drain(baton.followRun(99), []), (error: unknown) => error instanceof BatonApiError && error.status === 404);
    assert.throws(() => BatonClient.fromUrl(new URL(url).origin), /has no \?token=/);
  } finally {
    await server.kill();
  }
});

test("reply answers the agent's question of a run started through the API: a bad content is a 422 naming the field, the answer reaches the agent", async () => {
  const repo = await makeProject("client-reply-");
  const { server, url } = await startServe(repo, await freePort(), TOKEN);
  const baton = BatonClient.fromUrl(url);
  try {
    const schema = { type: "object", properties: { db: { type: "string", enum: ["postgres", "sqlite"] } }, required: ["db"] };
    const started = await baton.startRun({ task: "ask", agent: "fake", script: [{ ask: { message: "Which database?", schema } }], timeout: "5m" });
    let id: string | undefined;
    for await (const item of baton.followRun(started.id)) {
      if (item.type !== "event") continue;
      if (item.event.type === "question.asked") {
        id = String(item.event.data["id"]);
        await assert.rejects(baton.reply(started.number, id, { content: { db: "oracle" } }), (error: unknown) => error instanceof BatonApiError && error.status === 422 && error.code === "invalid_answer" && /field "db" must be one of postgres, sqlite/.test(error.message));
        assert.deepEqual(await baton.reply(started.number, id, { content: { db: "sqlite" }, by: "ada" }), { question: id, action: "accept", by: "ada" });
      }
      if (item.event.type === "question.answered") {
        assert.deepEqual(item.event.data["content"], { db: "sqlite" });
        assert.equal(item.event.data["who"], "ada");
      }
      if (item.event.type === "agent.message") assert.equal(item.event.data["text"], 'The user answered: {"action":"accept","content":{"db":"sqlite"}}');
    }
    assert.ok(id !== undefined, "the question was asked");
    assert.equal((await baton.getRun(started.number)).status, "succeeded");
  } finally {
    await server.kill();
  }
});
