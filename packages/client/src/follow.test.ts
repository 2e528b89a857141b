import assert from "node:assert/strict";
import { test } from "node:test";
import { followStream, type FollowItem } from "./follow.ts";

const envelope = (seq: number, type = "agent.started") => JSON.stringify({ v: 1, run: "run_01JZ8Q7W1V0000000000000000", seq, at: "2026-01-02T03:04:05.678Z", type, data: {} });

/** A fetch that answers each request with the next of `bodies` (a string, or a status), recording the Last-Event-ID it was sent. */
function scriptedFetch(bodies: (string | number)[], asked: string[]): typeof fetch {
  return (async (_url: string | URL | Request, init?: RequestInit) => {
    asked.push(new Headers(init?.headers).get("last-event-id") ?? "");
    const next = bodies.shift();
    if (next === undefined) throw new Error("no more answers scripted");
    if (typeof next === "number") return new Response(next === 204 ? null : JSON.stringify({ error: { code: "nope", message: "refused" } }), { status: next });
    return new Response(next, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
}

async function collect(items: AsyncGenerator<FollowItem>): Promise<FollowItem[]> {
  const seen: FollowItem[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

test("a follower reconnects from its last id after a stream ends early and after a resync, skips what it has, and ends at the final event", async () => {
  const asked: string[] = [];
  const fetch = scriptedFetch(
    [
      `retry: 0\n\nid: 1\ndata: ${envelope(1)}\n\ndata: {"v":1,"type":"agent.delta","run":"r","at":"t","data":{}}\n\nid: 2\ndata: ${envelope(2)}\n\nid: 3\ndata: ${envelope(3).slice(0, 20)}`,
      503,
      `retry: 0\n\nid: 2\ndata: ${envelope(2)}\n\nid: 3\ndata: ${envelope(3)}\n\nevent: resync\ndata: {"after": 3}\n\nid: 4\ndata: ${envelope(4)}\n\n`,
      `retry: 0\n\n: ping\n\nid: 4\ndata: ${envelope(4)}\n\nid: 5\ndata: ${envelope(5, "run.completed")}\n\nid: 6\ndata: ${envelope(6)}\n\n`,
    ],
    asked,
  );
  const seen = await collect(followStream({ fetch, url: "http://baton/api/runs/1/stream", headers: {}, endsAtFinal: true }));
  assert.deepEqual(
    seen.map((item) => (item.type === "event" ? item.id : item.type)),
    [1, "ephemeral", 2, 3, "resync", 4, 5],
  );
  assert.deepEqual(asked, ["0", "2", "2", "3"], "each reconnect names the last id it yielded");
});

test("a follower stops at a refusal (BatonApiError) and ends quietly when the server answers 204", async () => {
  await assert.rejects(collect(followStream({ fetch: scriptedFetch([404], []), url: "http://baton/api/runs/9/stream", headers: {}, endsAtFinal: true })), { name: "BatonApiError", status: 404, code: "nope" });
  assert.deepEqual(await collect(followStream({ fetch: scriptedFetch([204], []), url: "http://baton/api/runs/1/stream", headers: {}, endsAtFinal: true }, { after: 9 })), []);
});
