import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { RunSpanTree } from "@baton/otel";
import { OtlpReceiver } from "@baton/otel/testing";
import { cliEnv, linesOf, makeRepo, parseNdjson, readEvents, runBaton, runIds, startBaton, waitFor, workspacePath, writeScript, type BatonProcess } from "./cli-harness.ts";

const SCRIPT = [{ say: "working" }, { run: "echo one" }, { write: { path: "a.txt", content: "a\n" } }, { usage: { input_tokens: 10, output_tokens: 2 } }, { say: "done" }];

/** The span ids a run's log makes, as the exporter builds them. */
async function expectedSpanIds(repo: string, runId: string): Promise<string[]> {
  const tree = new RunSpanTree(runId);
  return (await readEvents(repo, runId)).flatMap((event) => tree.push(event)).map((span) => span.spanId);
}

async function fakeRun(repo: string, task: string, env: Record<string, string> = {}): Promise<void> {
  const script = await writeScript(repo, `${task.replace(/\W/g, "-")}.json`, SCRIPT);
  const result = await runBaton(repo, ["run", task, "--agent", "fake", "--script", script, "--timeout", "5m", "--include-dirty"], { env: cliEnv(env) });
  assert.equal(result.code, 0, result.stderr);
}

/** The feed's last position now, as `baton events --json` gives it. */
async function lastFeedPos(repo: string): Promise<number> {
  const result = await runBaton(repo, ["events", "--json"]);
  return parseNdjson<{ pos: number }>(result.stdout).at(-1)?.pos ?? 0;
}

/** The cursor `baton serve --otel` keeps in the store. */
async function savedCursor(repo: string): Promise<number> {
  const text = await readFile(join(repo, ".baton", "otel-cursor.json"), "utf8").catch(() => "{}");
  return (JSON.parse(text) as { pos?: number }).pos ?? 0;
}

function otelEnv(receiver: OtlpReceiver): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.base, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
}

test("baton otel export RUN sends the run's spans and prints its cursor; from that cursor it sends nothing again", async () => {
  const repo = await makeRepo("cli-otel-export-");
  await fakeRun(repo, "first");
  const [runId] = await runIds(repo);
  await using receiver = await OtlpReceiver.start();
  const expected = await expectedSpanIds(repo, runId as string);

  const exported = await runBaton(repo, ["otel", "export", "1"], { env: cliEnv(otelEnv(receiver)) });
  assert.equal(exported.code, 0, exported.stderr);
  assert.deepEqual(receiver.accepted.map((span) => span.spanId).sort(), [...expected].sort());
  const cursor = /continue with --after (\d+)/.exec(exported.stdout)?.[1];
  assert.ok(cursor !== undefined, exported.stdout);
  assert.ok(receiver.accepted.some((span) => span.name === "invoke_agent fake" && span.attributes["gen_ai.conversation.id"] !== undefined));
  assert.ok(receiver.accepted.some((span) => span.name === "execute_tool execute" || String(span.name).startsWith("execute_tool")));

  const again = await runBaton(repo, ["otel", "export", runId as string, "--after", cursor, "--endpoint", receiver.url], { env: cliEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }) });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^exported 0 spans in 0 requests/);
  assert.equal(receiver.accepted.length, expected.length);

  const feed = await runBaton(repo, ["otel", "export", "--feed"], { env: cliEnv(otelEnv(receiver)) });
  assert.equal(feed.code, 0, feed.stderr);
  assert.equal(receiver.accepted.length, 2 * expected.length, "the feed gives the same spans, same ids");
  assert.deepEqual(new Set(receiver.accepted.map((span) => span.spanId)), new Set(expected));
});

test("baton otel export RUN --follow sends spans as the run makes them, and ends with the run, every span once; --feed --follow stops on Ctrl-C with its cursor", async (t) => {
  const repo = await makeRepo("cli-otel-follow-");
  await using receiver = await OtlpReceiver.start();
  const script = await writeScript(repo, "held.json", [{ write: { path: "a.txt", content: "a\n" } }, { wait_for: "go" }, { say: "done" }]);
  const run = startBaton(repo, ["run", "Held work", "--agent", "fake", "--script", script, "--timeout", "5m"]);
  t.after(() => run.kill());
  await waitFor("the run", async () => (await runIds(repo)).length === 1);
  const [runId] = await runIds(repo);
  const follow = startBaton(repo, ["otel", "export", "1", "--follow"], { env: cliEnv(otelEnv(receiver)) });
  t.after(() => follow.kill());
  // The write's execute_tool span ends while the run still runs: it is sent within a second, not at the run's end.
  await receiver.until(() => receiver.accepted.some((span) => String(span.name).startsWith("execute_tool")));
  assert.ok(!receiver.accepted.some((span) => span.name === "baton.run"), "the run's own span is not done yet");
  await writeFile(join(await workspacePath(repo, runId as string), "go"), "");
  assert.equal((await run.done).code, 0);
  const followed = await follow.done;
  assert.equal(followed.code, 0, followed.stderr);
  assert.match(followed.stdout, /^exported \d+ spans in \d+ requests to .*; up to seq \d+ \(continue with --after \d+\)\n$/);
  const expected = await expectedSpanIds(repo, runId as string);
  assert.deepEqual(receiver.accepted.map((span) => span.spanId).sort(), [...expected].sort(), "every span once");

  const feed = startBaton(repo, ["otel", "export", "--feed", "--follow"], { env: cliEnv(otelEnv(receiver)) });
  await receiver.until(() => receiver.accepted.length === 2 * expected.length);
  feed.child.kill("SIGINT");
  const stopped = await feed.done;
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stdout, /up to pos \d+ \(continue with --after \d+\)\n$/);
});

test("baton otel export refuses bad input in one line (exit 2), and a receiver that is down with the cursor to resume from (exit 1)", async () => {
  const repo = await makeRepo("cli-otel-bad-");
  for (const args of [["otel", "export"], ["otel", "export", "1", "--feed"], ["otel", "export", "--feed", "--endpoint", "ftp://x"], ["otel", "export", "--feed", "--after", "-1"]]) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(linesOf(result.stderr).length, 1, result.stderr);
  }
  await fakeRun(repo, "some work");
  const closed = await OtlpReceiver.start();
  const url = closed.url;
  await closed[Symbol.asyncDispose]();
  const down = await runBaton(repo, ["otel", "export", "--feed", "--endpoint", url], { env: cliEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }) });
  assert.equal(down.code, 1, down.stderr);
  assert.match(down.stderr, /could not export to .*: everything up to pos 0 was delivered; run again with --after 0\n$/);
});

test("baton serve --otel killed with a batch in flight resumes from the cursor in the store: every span id is accepted once", async () => {
  const repo = await makeRepo("cli-otel-serve-");
  await fakeRun(repo, "before the server");
  await using receiver = await OtlpReceiver.start();
  const env = cliEnv(otelEnv(receiver));
  const serve = (): BatonProcess => startBaton(repo, ["serve", "--port", "0", "--otel"], { env });
  const processes: BatonProcess[] = [];
  try {
    // The first batch is received but never answered: the exporter is killed with it in flight.
    receiver.holding = true;
    processes.push(serve());
    await receiver.until(() => receiver.heldCount === 1);
    processes[0]?.child.kill("SIGKILL");
    await processes[0]?.done;
    receiver.holding = false;

    processes.push(serve());
    const ids = await runIds(repo);
    const first = await expectedSpanIds(repo, ids[0] as string);
    await receiver.until(() => first.every((id) => receiver.accepted.some((span) => span.spanId === id)));

    // While it serves, a new run's spans follow; then it is killed again and restarted.
    await fakeRun(repo, "while serving");
    const second = await expectedSpanIds(repo, (await runIds(repo)).find((id) => !ids.includes(id)) as string);
    await receiver.until(() => second.every((id) => receiver.accepted.some((span) => span.spanId === id)));
    // Killed once the cursor is saved: a kill between acceptance and the save would send the batch again.
    const end = await lastFeedPos(repo);
    await waitFor("the cursor saved", async () => (await savedCursor(repo)) >= end);
    processes[1]?.child.kill("SIGKILL");
    await processes[1]?.done;

    processes.push(serve());
    await processes[2]?.waitForStdout("the export line", (stdout) => /Exporting every run's spans to /.test(stdout));
    await fakeRun(repo, "after the restart");
    const known = new Set([...ids, ...(await runIds(repo)).slice(0, 2)]);
    const third = await expectedSpanIds(repo, (await runIds(repo)).find((id) => !known.has(id)) as string);
    await receiver.until(() => third.every((id) => receiver.accepted.some((span) => span.spanId === id)));

    const accepted = receiver.accepted.map((span) => span.spanId);
    assert.equal(accepted.length, first.length + second.length + third.length, "no span was accepted twice");
    assert.deepEqual(new Set(accepted), new Set([...first, ...second, ...third]));
  } finally {
    for (const process of processes) process.kill();
  }
});
