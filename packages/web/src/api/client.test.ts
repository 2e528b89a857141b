import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, createApi, lastingFailure } from "./client.ts";

function recordingFetch(status: number, body: unknown) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetchFn = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }) as typeof fetch;
  return { calls, fetchFn };
}

test("requests carry the token as a bearer header; stream and output URLs carry it as a query", async () => {
  const { calls, fetchFn } = recordingFetch(200, { runs: [{ id: "run_A", number: 1, status: "running" }], feed_pos: 17 });
  const api = createApi("", "t0k&n", fetchFn);
  assert.deepEqual(await api.listRuns(), { runs: [{ id: "run_A", number: 1, status: "running" }], feedPos: 17 });
  assert.equal(calls[0]!.url, "/api/runs");
  assert.equal(new Headers(calls[0]!.init?.headers).get("authorization"), "Bearer t0k&n");
  assert.equal(api.runStreamUrl("12", 7), "/api/runs/12/stream?after=7&token=t0k%26n");
  assert.equal(api.feedUrl(0), "/api/stream?token=t0k%26n");
  assert.equal(api.feedUrl(42), "/api/stream?after=42&token=t0k%26n");
});

test("a list without feed_pos (an older server) follows the feed from 0", async () => {
  const api = createApi("", "t", recordingFetch(200, { runs: [] }).fetchFn);
  assert.deepEqual(await api.listRuns(), { runs: [], feedPos: 0 });
});

test("ids from the log are encoded into the output URL, which stays on our own origin", () => {
  const api = createApi("", "t", recordingFetch(200, {}).fetchFn);
  assert.equal(api.outputUrl("3", "javascript:alert(1)"), "/api/runs/3/outputs/javascript%3Aalert(1)?token=t");
  assert.equal(api.outputUrl("3", "../../x"), "/api/runs/3/outputs/..%2F..%2Fx?token=t");
});

test("an API error answer becomes an ApiError with its code and message", async () => {
  const api = createApi("", "t", recordingFetch(404, { error: { code: "run_not_found", message: "no run 9" } }).fetchFn);
  await assert.rejects(api.getRun("9"), (error: unknown) => error instanceof ApiError && error.status === 404 && error.code === "run_not_found" && error.message === "no run 9");
  const broken = createApi("", "t", recordingFetch(502, undefined).fetchFn);
  await assert.rejects(broken.cancelRun("9"), (error: unknown) => error instanceof ApiError && error.code === "http_502");
});

test("a refused token or an unknown run is a lasting failure; a server that is down is not", () => {
  assert.match(lastingFailure(new ApiError(401, "unauthorized", "no")) ?? "", /access token was refused/);
  assert.equal(lastingFailure(new ApiError(404, "run_not_found", "no run 9")), "no run 9");
  assert.equal(lastingFailure(new ApiError(503, "x", "busy")), undefined);
  assert.equal(lastingFailure(new TypeError("Failed to fetch")), undefined);
});

test("a gate decision is a POST to the run's approve, reject or answer, marked as made on the web", async () => {
  const { calls, fetchFn } = recordingFetch(202, { run: { id: "run_A", number: 1, status: "paused" } });
  const api = createApi("", "t", fetchFn);
  await api.decideGate("4", { kind: "answer", answer: "Approve", comment: "ok" });
  await api.decideGate("4", { kind: "reject" });
  assert.deepEqual(
    calls.map((call) => [call.init?.method, call.url, JSON.parse(String(call.init?.body))]),
    [
      ["POST", "/api/runs/4/answer", { answer: "Approve", comment: "ok", via: "web" }],
      ["POST", "/api/runs/4/reject", { via: "web" }],
    ],
  );
  const refused = createApi("", "t", recordingFetch(409, { error: { code: "not_paused", message: "run 4 is running, not waiting at a gate" } }).fetchFn);
  await assert.rejects(refused.decideGate("4", { kind: "approve" }), (error: unknown) => error instanceof ApiError && error.code === "not_paused");
});

test("steering, permission answers, the diff and the overview go to their routes, recorded via web", async () => {
  const { calls, fetchFn } = recordingFetch(202, { input: { id: "inp_1", by: "web" }, answer: {}, diff: { files: [] }, runs: [{ id: "run_A", number: 1, status: "running", waiting: "permission" }] });
  const api = createApi("", "t", fetchFn);
  assert.deepEqual(await api.steer("3", "also this"), { id: "inp_1", by: "web" });
  await api.answerPermission("3", "call/1", { action: "allow", alwaysForRun: true });
  await api.answerPermission("3", "c2", { action: "deny", reason: "" });
  await api.answerQuestion("3", "q_1", { action: "accept", content: { db: "sqlite", replicas: 2 } });
  await api.answerQuestion("3", "q_2", { action: "decline" });
  await api.getDiff("3");
  assert.equal((await api.overview("running"))[0]!.waiting, "permission");
  assert.deepEqual(
    calls.map((c) => [c.init?.method, c.url, c.init?.body === undefined ? undefined : JSON.parse(String(c.init.body))]),
    [
      ["POST", "/api/runs/3/input", { text: "also this", by: "web" }],
      ["POST", "/api/runs/3/permissions/call%2F1/allow", { via: "web", by: "web", always_for_run: true }],
      ["POST", "/api/runs/3/permissions/c2/deny", { via: "web", by: "web" }],
      ["POST", "/api/runs/3/questions/q_1", { via: "web", by: "web", action: "accept", content: { db: "sqlite", replicas: 2 } }],
      ["POST", "/api/runs/3/questions/q_2", { via: "web", by: "web", action: "decline" }],
      ["GET", "/api/runs/3/diff", undefined],
      ["GET", "/api/overview?status=running", undefined],
    ],
  );
});

test("an artifact's URL is only ever one of this API's artifact paths", () => {
  const api = createApi("", "t", recordingFetch(200, {}).fetchFn);
  const sha = "a".repeat(64);
  assert.equal(api.artifactUrl(`/api/runs/1/artifacts/${sha}`), `/api/runs/1/artifacts/${sha}?token=t`);
  for (const bad of ["https://evil.test/x.png", `//evil.test/api/runs/1/artifacts/${sha}`, "/api/runs/1/outputs/x", `/api/runs/1/artifacts/${sha}/../x`, "javascript:alert(1)"]) {
    assert.equal(api.artifactUrl(bad), "about:blank", bad);
  }
});
