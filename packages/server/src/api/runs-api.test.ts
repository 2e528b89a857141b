import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { AUTH, beginRun, finishedRun, makeProject, testApp, TEST_TOKEN } from "../testing/server-fixtures.ts";
import { definedFields } from "@baton/protocol/core";

async function fixture(t: { after: (fn: () => Promise<void>) => void }) {
  const project = await makeProject("server-api-");
  t.after(() => project.store.close());
  const first = await finishedRun(project.store, 5, "first task");
  const live = await beginRun(project.store, "second task");
  t.after(() => live.close());
  const { app } = testApp(project.store, project.root);
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers: { ...AUTH, ...headers } });
  return { ...project, first, live, app, get };
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  assert.equal(typeof body.error.message, "string");
  return body.error;
}

test("GET /api/runs lists runs newest first, filters by status, limits", async (t) => {
  const { get, first, live } = await fixture(t);
  const all = (await (await get("/api/runs")).json()) as { runs: Array<{ id: string; number: number; status: string; task: string }> };
  assert.deepEqual(all.runs.map((r) => r.id), [live.runId, first.runId]);
  assert.equal(all.runs[1]?.task, "first task");
  const succeeded = (await (await get("/api/runs?status=succeeded")).json()) as { runs: Array<{ id: string }> };
  assert.deepEqual(succeeded.runs.map((r) => r.id), [first.runId]);
  const one = (await (await get("/api/runs?limit=1")).json()) as { runs: Array<{ id: string }> };
  assert.deepEqual(one.runs.map((r) => r.id), [live.runId]);
  for (const bad of ["?status=bogus", "?limit=0", "?limit=abc", "?limit=-1", "?limit=100000"]) {
    const response = await get(`/api/runs${bad}`);
    assert.equal(response.status, 400, bad);
    assert.equal((await errorOf(response)).code, "bad_request");
  }
});

test("GET /api/runs gives feed_pos, the last committed feed position: following the feed after it gives only what comes next", async (t) => {
  const { get, store, live } = await fixture(t);
  const body = (await (await get("/api/runs")).json()) as { feed_pos: number };
  const feed = [];
  for await (const event of store.readFeed()) feed.push(event);
  assert.equal(body.feed_pos, feed.at(-1)?.pos);
  await live.append("log", { level: "info", message: "after the list" }).durable;
  const next = [];
  for await (const event of store.readFeed({ after: body.feed_pos })) next.push(event);
  assert.deepEqual(next.map((event) => event.data["message"]), ["after the list"]);
});

test("GET /api/runs/{ref} by number, id and prefix; unknown refs are 404", async (t) => {
  const { get, first } = await fixture(t);
  for (const ref of [String(first.number), first.runId, first.runId.slice(0, 20)]) {
    const response = await get(`/api/runs/${ref}`);
    assert.equal(response.status, 200, ref);
    const body = (await response.json()) as { run: { id: string; status: string; last_seq: number } };
    assert.equal(body.run.id, first.runId);
    assert.equal(body.run.status, "succeeded");
    assert.equal(body.run.last_seq, first.last);
  }
  for (const ref of ["99", "run_01ZZZZZZZZZZZZZZZZZZZZZZZZ"]) {
    const response = await get(`/api/runs/${ref}`);
    assert.equal(response.status, 404, ref);
    assert.equal((await errorOf(response)).code, "run_not_found");
  }
});

test("GET /api/runs/{ref}/events pages by seq, as JSON or NDJSON", async (t) => {
  const { get, first } = await fixture(t);
  const page = (await (await get(`/api/runs/${first.number}/events?after=2&limit=3`)).json()) as { events: Array<{ seq: number }>; next_after: number };
  assert.deepEqual(page.events.map((e) => e.seq), [3, 4, 5]);
  assert.equal(page.next_after, 5);
  const rest = (await (await get(`/api/runs/${first.number}/events?after=5`)).json()) as { events: Array<{ seq: number; type: string }>; next_after: number };
  assert.deepEqual(rest.events.map((e) => e.seq), [6, 7, 8]);
  assert.equal(rest.events.at(-1)?.type, "run.completed");
  const empty = (await (await get(`/api/runs/${first.number}/events?after=8`)).json()) as { events: unknown[]; next_after: number };
  assert.deepEqual(empty, { events: [], next_after: 8 });
  const ndjson = await get(`/api/runs/${first.number}/events?after=4`, { accept: "application/x-ndjson" });
  assert.match(ndjson.headers.get("content-type") ?? "", /application\/x-ndjson/);
  const lines = (await ndjson.text()).trim().split("\n").map((line) => (JSON.parse(line) as { seq: number }).seq);
  assert.deepEqual(lines, [5, 6, 7, 8]);
  for (const bad of ["?after=-1", "?after=x", "?after=1.5", "?limit=0"]) assert.equal((await get(`/api/runs/${first.number}/events${bad}`)).status, 400, bad);
});

test("GET outputs serves a trace file as text, 404 when absent, and refuses bad call ids", async (t) => {
  const { get, first, store, root } = await fixture(t);
  const outputs = join(store.runDir(first.runId), "outputs");
  await mkdir(outputs);
  await writeFile(join(outputs, "c_3f9a1b2c4d5e.txt"), "hello output\n");
  await writeFile(join(root, "secret.txt"), "do not serve\n");
  await symlink(join(root, "secret.txt"), join(outputs, "c_link.txt"));
  const ok = await get(`/api/runs/${first.number}/outputs/c_3f9a1b2c4d5e`);
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(await ok.text(), "hello output\n");
  const missing = await get(`/api/runs/${first.number}/outputs/c_000000000000`);
  assert.equal(missing.status, 404);
  assert.equal((await errorOf(missing)).code, "output_not_found");
  assert.equal((await get(`/api/runs/${first.number}/outputs/c_link`)).status, 404, "a symlink is not followed");
  assert.equal((await get(`/api/runs/99/outputs/c_3f9a1b2c4d5e`)).status, 404);
});

test("GET outputs serves an output its tool.completed holds whole (no trace file) from the event; a cut preview without a file is 404", async (t) => {
  const { get, live } = await fixture(t);
  live.append("tool.started", { session: "s1", call: "c_whole", tool: "edit", kind: "edit" });
  live.append("tool.completed", { session: "s1", call: "c_whole", tool: "edit", status: "completed", is_error: false, duration_ms: 1, output_chars: 12, preview: "short output" });
  live.append("tool.started", { session: "s1", call: "c_cut", tool: "read", kind: "read" });
  await live.append("tool.completed", { session: "s1", call: "c_cut", tool: "read", status: "completed", is_error: false, duration_ms: 1, output_chars: 900, preview: "x".repeat(200) }).durable;
  const whole = await get(`/api/runs/${live.number}/outputs/c_whole`);
  assert.equal(whole.status, 200);
  assert.match(whole.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(await whole.text(), "short output");
  const cut = await get(`/api/runs/${live.number}/outputs/c_cut`);
  assert.equal(cut.status, 404, "a preview shorter than the output is not served as the output");
  assert.equal((await errorOf(cut)).code, "output_not_found");
});

test("path traversal through refs and call ids is refused (4xx, never a file)", async (t) => {
  const { get, first } = await fixture(t);
  const n = first.number;
  const attempts = [
    `/api/runs/..%2F..%2Fetc/events`,
    `/api/runs/%2E%2E/events`,
    `/api/runs/..%2f..%2f..%2fetc%2fpasswd`,
    `/api/runs/%2Fetc%2Fpasswd`,
    `/api/runs/run_x%00/events`,
    `/api/runs/${n}/outputs/..%2F..%2F..%2Fsecret`,
    `/api/runs/${n}/outputs/..`,
    `/api/runs/${n}/outputs/%2E%2E`,
    `/api/runs/${n}/outputs/%2Fetc%2Fpasswd`,
    `/api/runs/${n}/outputs/a%00b`,
    `/api/runs/${n}/outputs/a..b`,
    `/api/runs/${n}/outputs/.hidden`,
    `/api/runs/${n}/outputs/a%5Cb`,
  ];
  for (const path of attempts) {
    const response = await get(path);
    assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
    assert.match(response.headers.get("content-type") ?? "", /json/, path);
    const text = await response.text();
    assert.doesNotMatch(text, /do not serve|root:/, path);
  }
  // Unencoded dot segments are resolved by the URL parser before routing: they name a static path.
  for (const path of [`/api/runs/${n}/outputs/../../../../secret.txt`, "/api/runs/../../secret.txt", "/../secret.txt"]) {
    assert.doesNotMatch(await (await get(path)).text(), /do not serve/, path);
  }
});

test("auth: no token 401, wrong token 401, bearer or ?token= accepted", async (t) => {
  const { app } = await fixture(t);
  const none = await app.request("/api/runs");
  assert.equal(none.status, 401);
  assert.equal((await errorOf(none)).code, "unauthorized");
  assert.equal((await app.request("/api/runs", { headers: { authorization: "Bearer nope" } })).status, 401);
  assert.equal((await app.request("/api/runs?token=nope")).status, 401);
  assert.equal((await app.request(`/api/runs?token=${TEST_TOKEN}`)).status, 200);
  assert.equal((await app.request("/api/runs", { headers: { authorization: `bearer ${TEST_TOKEN}` } })).status, 200);
});

test("Host allow-list: loopback names pass, other names are 403 even for static files", async (t) => {
  const project = await makeProject("server-host-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root, { allowedHosts: ["baton.internal"] });
  for (const host of ["localhost:8080", "127.0.0.1:1", "[::1]:9", "localhost", "baton.internal:80", "BATON.INTERNAL"]) {
    assert.equal((await app.request("/api/runs", { headers: { ...AUTH, host } })).status, 200, host);
  }
  for (const host of ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil:1", "", "a b"]) {
    const response = await app.request("/api/runs", { headers: { ...AUTH, host } });
    assert.equal(response.status, 403, host);
    assert.equal((await errorOf(response)).code, "forbidden_host");
    assert.equal((await app.request("/", { headers: { host } })).status, 403, `static ${host}`);
  }
});

test("unknown API routes are 404 JSON, wrong methods 405 with Allow", async (t) => {
  const { app } = await fixture(t);
  const missing = await app.request("/api/nope", { headers: AUTH });
  assert.equal(missing.status, 404);
  assert.equal((await errorOf(missing)).code, "not_found");
  const wrong = await app.request("/api/runs/1", { method: "DELETE", headers: AUTH });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "GET");
  assert.equal((await errorOf(wrong)).code, "method_not_allowed");
  assert.equal((await app.request("/api/runs", { method: "PUT", headers: AUTH })).status, 405);
  assert.equal((await app.request("/api/runs/1/cancel", { method: "GET", headers: AUTH })).status, 405);
});

test("POST /api/runs validates its body: 415 without JSON, 400 for bad fields", async (t) => {
  const { app } = await fixture(t);
  const post = (body: string, type?: string) => app.request("/api/runs", { method: "POST", body, headers: { ...AUTH, ...definedFields({ "content-type": type }) } });
  const plain = await post("task=x", "text/plain");
  assert.equal(plain.status, 415);
  assert.equal((await errorOf(plain)).code, "unsupported_media_type");
  assert.equal((await post("{}")).status, 415);
  for (const body of ["{", "[]", "{}", '{"task":"x"}', '{"task":"","agent":"fake"}', '{"task":"x","agent":"../x"}', '{"task":"x","agent":"fake","model":5}', '{"task":1,"agent":"fake"}']) {
    const response = await post(body, "application/json");
    assert.equal(response.status, 400, body);
    assert.equal((await errorOf(response)).code, "bad_request", body);
  }
  assert.equal((await post(JSON.stringify({ task: "x".repeat(300_000), agent: "fake" }), "application/json")).status, 413);
});

test("POST /api/runs starts the CLI detached and answers with the new run; its refusal is 422", async (t) => {
  const { app, store, root } = await fixture(t);
  const post = (body: object) => app.request("/api/runs", { method: "POST", body: JSON.stringify(body), headers: { ...AUTH, "content-type": "application/json" } });
  await writeFile(join(root, "s.json"), "[]\n");
  const created = await post({ task: "-starts with a dash", agent: "fake", model: "m1", script: "s.json" });
  assert.equal(created.status, 201);
  const { run } = (await created.json()) as { run: { id: string; number: number } };
  assert.equal(run.number, 3);
  assert.equal(created.headers.get("location"), `/api/runs/${run.id}`);
  assert.equal((await store.getRun(run.id))?.task, "-starts with a dash");
  const refused = await post({ task: "fail: unknown agent \"x\"", agent: "x" });
  assert.equal(refused.status, 422);
  assert.deepEqual(await errorOf(refused), { code: "run_rejected", message: 'unknown agent "x": fix it' });
});

test("POST /api/runs answers 504 when the run does not start in time", async (t) => {
  const project = await makeProject("server-start-timeout-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root, { startTimeoutMs: 300 });
  const response = await app.request("/api/runs", { method: "POST", body: JSON.stringify({ task: "hang", agent: "fake" }), headers: { ...AUTH, "content-type": "application/json" } });
  assert.equal(response.status, 504);
  assert.equal((await errorOf(response)).code, "start_timeout");
});

test("POST /api/runs/{ref}/cancel leaves a cancel request (202); an ended run is 409", async (t) => {
  const { app, store, first, live } = await fixture(t);
  const cancel = (ref: string | number, body?: string) =>
    app.request(`/api/runs/${ref}/cancel`, { method: "POST", headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) }, ...definedFields({ body }) });
  const asked = await cancel(live.number, JSON.stringify({ reason: "wrong task" }));
  assert.equal(asked.status, 202);
  const { readFile } = await import("node:fs/promises");
  const request = JSON.parse(await readFile(join(store.runDir(live.runId), "requests", "cancel-request.json"), "utf8")) as { by: string; reason: string };
  assert.equal(request.by, "api");
  assert.equal(request.reason, "wrong task");
  const ended = await cancel(first.number);
  assert.equal(ended.status, 409);
  assert.equal((await errorOf(ended)).code, "run_ended");
  assert.equal((await cancel(99)).status, 404);
});

test("static files: a page saying how to build the UI when it is missing; index.html for unknown paths", async (t) => {
  const project = await makeProject("server-static-");
  t.after(() => project.store.close());
  const missing = testApp(project.store, project.root, { webDist: join(project.root, "no-dist") }).app;
  const page = await missing.request("/");
  assert.equal(page.status, 200);
  assert.match(await page.text(), /npm run build -w @baton\/web/);
  const dist = join(project.root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), "<!doctype html><title>ui</title>");
  await writeFile(join(dist, "assets", "app.js"), "console.log(1)");
  const { app } = testApp(project.store, project.root, { webDist: dist });
  assert.equal(await (await app.request("/")).text(), "<!doctype html><title>ui</title>");
  assert.equal(await (await app.request("/runs/12")).text(), "<!doctype html><title>ui</title>");
  const script = await app.request("/assets/app.js");
  assert.match(script.headers.get("content-type") ?? "", /javascript/);
  assert.equal(await script.text(), "console.log(1)");
  assert.equal((await app.request("/api/runs")).status, 401, "the API still needs its token");
});
