import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { isFinalType, type Envelope } from "@baton/protocol";
import { SseReader } from "@baton/server/testing";
import { makeGate } from "@baton/testkit/gate";
import { cliEnv, linesOf, makeRepo, readEvents, runBaton, servedAt, startBaton, waitForEvent, workspacePath, writeScript, type BatonProcess, type ServeAddress } from "./cli-harness.ts";

type Served = ServeAddress & { process: BatonProcess };

async function serve(repo: string, env: Record<string, string> = {}): Promise<Served> {
  const process = startBaton(repo, ["serve", "--port", "0"], { env: cliEnv(env) });
  return { process, ...(await servedAt(process)) };
}

async function stop(served: Served): Promise<void> {
  served.process.child.kill("SIGTERM");
  const result = await served.process.done;
  assert.equal(result.code, 0, result.stderr);
}

test("baton serve prints its URL with a token, keeps it in an owner-only serve.json, and stops cleanly on SIGTERM with a stream open", async () => {
  const repo = await makeRepo("cli-serve-start-");
  const served = await serve(repo);
  const infoPath = join(repo, ".baton", "serve.json");
  assert.equal((await stat(infoPath)).mode & 0o777, 0o600);
  const info = JSON.parse(await readFile(infoPath, "utf8")) as { url: string; port: number; token: string; pid: number };
  assert.equal(info.token, served.token);
  assert.equal(`http://127.0.0.1:${info.port}`, served.base);
  assert.equal(info.url, `${served.base}/`);
  assert.equal(info.pid, served.process.pid);
  assert.equal((await fetch(`${served.base}/api/runs`)).status, 401);
  const runs = await fetch(`${served.base}/api/runs?token=${served.token}`);
  assert.deepEqual(await runs.json(), { runs: [], feed_pos: 0 });
  const feed = await SseReader.open(`${served.base}/api/stream?token=${served.token}`);
  await feed.waitFor("the retry frame", (frames) => frames.length > 0);
  await stop(served);
  await feed.ended;
  await assert.rejects(stat(infoPath), "serve.json is removed");
});

test("BATON_SERVE_TOKEN keeps the token across restarts", async () => {
  const repo = await makeRepo("cli-serve-token-");
  const token = "a-stable-token-0123456789";
  const served = await serve(repo, { BATON_SERVE_TOKEN: token });
  assert.equal(served.token, token);
  await stop(served);
});

test("a non-loopback --host is refused without --allow-remote (exit 2, one line)", async () => {
  const repo = await makeRepo("cli-serve-remote-");
  const result = await runBaton(repo, ["serve", "--host", "0.0.0.0", "--port", "0"]);
  assert.equal(result.code, 2);
  assert.equal(linesOf(result.stderr).length, 1);
  assert.match(result.stderr, /--allow-remote/);
  assert.equal(result.stdout, "");
});

test("a run started with POST /api/runs survives the server being killed; a restarted server serves all of it", async (t) => {
  const repo = await makeRepo("cli-serve-run-");
  // The run waits at a gate the test opens only once the server is dead (or when the test
  // ends early: the run is nobody's child here, and must not wait for its timeout).
  const serverGone = await makeGate("server-gone");
  t.after(() => serverGone.open());
  await writeScript(repo, "steps.json", [{ say: "Starting." }, serverGone.step, { write: { path: "out.txt", content: "done\n" } }, { say: "Done." }]);
  const token = "e2e-token-0123456789abcdef";
  const first = await serve(repo, { BATON_SERVE_TOKEN: token });
  const started = await fetch(`${first.base}/api/runs`, {
    method: "POST",
    headers: { ...first.auth, "content-type": "application/json" },
    body: JSON.stringify({ task: "Write out.txt", agent: "fake", script: "steps.json" }),
  });
  assert.equal(started.status, 201, await started.clone().text());
  const { run } = (await started.json()) as { run: { id: string; number: number } };
  assert.equal(run.number, 1);

  const live = await SseReader.open(`${first.base}/api/runs/${run.number}/stream`, first.auth);
  assert.equal(live.status, 200);
  await live.waitFor("run.started", () => live.events<Envelope>().some((e) => e.type === "run.started"));
  first.process.child.kill("SIGKILL");
  await first.process.done;
  await live.ended;
  assert.ok(!(await readEvents(repo, run.id)).some((event) => isFinalType(event.type)), "the run was still going when the server died");
  await serverGone.open();

  // The run is its own process: it finishes without the server.
  await waitForEvent(repo, run.id, "run.completed", (event) => event.type === "run.completed");
  assert.equal(await readFile(join(await workspacePath(repo, run.id), "out.txt"), "utf8"), "done\n");

  const second = await serve(repo, { BATON_SERVE_TOKEN: token });
  const replay = await SseReader.open(`${second.base}/api/runs/${run.id}/stream`, second.auth);
  await replay.ended;
  const logged = await readEvents(repo, run.id);
  assert.deepEqual(
    replay.events<Envelope>().map(({ __id: _id, ...event }) => event),
    logged,
    "every logged event, as logged",
  );
  assert.deepEqual(replay.events().map((e) => e.__id), logged.map((e) => e.seq));
  const resumedLive = live.events<Envelope>().map((e) => e.seq);
  assert.deepEqual(resumedLive, logged.slice(0, resumedLive.length).map((e) => e.seq), "the first server's stream was a prefix");
  const summary = (await (await fetch(`${second.base}/api/runs/${run.number}`, { headers: second.auth })).json()) as { run: { status: string; task: string } };
  assert.equal(summary.run.status, "succeeded");
  assert.equal(summary.run.task, "Write out.txt");
  await stop(second);
});

test("a run started through the API is watched to its end over SSE", async () => {
  const repo = await makeRepo("cli-serve-watch-");
  await writeScript(repo, "steps.json", [{ say: "Hello." }, { run: "echo hi" }, { say: "Bye." }]);
  const served = await serve(repo);
  const started = await fetch(`${served.base}/api/runs`, {
    method: "POST",
    headers: { ...served.auth, "content-type": "application/json" },
    body: JSON.stringify({ task: "Say hello", agent: "fake", script: "steps.json", require_output: "none" }),
  });
  assert.equal(started.status, 201);
  const { run } = (await started.json()) as { run: { id: string; number: number } };
  const reader = await SseReader.open(`${served.base}/api/runs/${run.id}/stream?token=${served.token}`);
  await reader.ended;
  const types = reader.events<Envelope>().map((e) => e.type);
  assert.equal(types[0], "run.created");
  assert.equal(types.at(-1), "run.completed");
  assert.ok(types.includes("tool.completed"));
  assert.deepEqual(reader.events().map((e) => e.__id), (await readEvents(repo, run.id)).map((e) => e.seq));
  const again = await SseReader.open(`${served.base}/api/runs/${run.id}/stream?token=${served.token}`, { "last-event-id": String(types.length) });
  assert.equal(again.status, 204, "after the final event: no content");
  const refused = await fetch(`${served.base}/api/runs`, {
    method: "POST",
    headers: { ...served.auth, "content-type": "application/json" },
    body: JSON.stringify({ task: "x", agent: "nope" }),
  });
  assert.equal(refused.status, 422);
  assert.match(((await refused.json()) as { error: { message: string } }).error.message, /unknown agent/);
  // --model goes through: the fake agent takes it by session config option and reports it.
  const modelled = await fetch(`${served.base}/api/runs`, {
    method: "POST",
    headers: { ...served.auth, "content-type": "application/json" },
    body: JSON.stringify({ task: "Say hello", agent: "fake", model: "chosen-model", script: "steps.json", require_output: "none" }),
  });
  assert.equal(modelled.status, 201);
  const second = ((await modelled.json()) as { run: { id: string } }).run;
  const ended = await SseReader.open(`${served.base}/api/runs/${second.id}/stream?token=${served.token}`);
  await ended.ended;
  const agentStarted = ended.events<Envelope>().find((e) => e.type === "agent.started");
  assert.equal((agentStarted?.data as { model?: string } | undefined)?.model, "chosen-model");
  await stop(served);
});

test("a run started through the API is unattended: without a timeout it is refused (422), with one it carries it", async () => {
  const repo = await makeRepo("cli-serve-timeout-");
  await writeScript(repo, "steps.json", [{ write: { path: "a.txt", content: "a\n" } }]);
  const served = await serve(repo, { BATON_TIMEOUT: "" });
  try {
    const post = (body: object) =>
      fetch(`${served.base}/api/runs`, { method: "POST", headers: { ...served.auth, "content-type": "application/json" }, body: JSON.stringify({ task: "Write a", agent: "fake", script: "steps.json", ...body }) });
    const refused = await post({});
    assert.equal(refused.status, 422);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "run_rejected");
    assert.match(error.message, /needs a timeout/);
    const bad = await post({ timeout: "soon" });
    assert.equal(bad.status, 422);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /--timeout: "soon" is not a duration/);
    const started = await post({ timeout: "5m" });
    assert.equal(started.status, 201);
    const { run } = (await started.json()) as { run: { id: string } };
    const reader = await SseReader.open(`${served.base}/api/runs/${run.id}/stream?token=${served.token}`);
    await reader.ended;
    const events = reader.events<Envelope>();
    assert.deepEqual(events[0]?.data["limits"], { timeout_ms: 300_000 });
    assert.equal(events.at(-1)?.data["status"], "succeeded");
  } finally {
    await stop(served);
  }
});
