import assert from "node:assert/strict";
import { test } from "node:test";
import { isFinalType, openStartsOf, type Envelope } from "@baton/protocol";
import {
  eventsOfType,
  killGroup,
  killProcessesUnder,
  linesOf,
  liveProcessesUnder,
  makeRepo,
  readEvents,
  runBaton,
  startBaton,
  waitFor,
  waitForAgentGroup,
  waitForEvent,
  waitForOnlyRun,
  writeScript,
} from "./cli-harness.ts";

type ErrorInfo = { code: string; message: string };

/** Every tool call that started has exactly one end, and every turn that started has its end. */
function assertEverythingStartedEnded(events: readonly Envelope[]): void {
  for (const start of eventsOfType(events, "tool.started")) {
    const ends = eventsOfType(events, "tool.completed").filter((event) => event.data["call"] === start.data["call"]);
    assert.equal(ends.length, 1, `tool call ${String(start.data["call"])} has one tool.completed`);
  }
  const turns = eventsOfType(events, "turn.started").map((event) => event.data["turn"]);
  assert.deepEqual(eventsOfType(events, "turn.completed").map((event) => event.data["turn"]), turns);
}

test("kill -9 of baton run mid-turn: the next commands show the run failed (interrupted), with exactly one final event", async (t) => {
  const repo = await makeRepo("cli-kill9-");
  const script = await writeScript(repo, "long.json", [{ say: "working on it" }, { sleep: 600_000 }, { say: "never said" }]);
  const run = startBaton(repo, ["run", "Take a long time", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "turn.started", (event) => event.type === "turn.started");
  // The agent was started detached, in its own process group: it outlives a SIGKILLed baton
  // until it notices its input closed. Whatever is left of it goes after the test.
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));

  run.child.kill("SIGKILL");
  const killed = await run.done;
  assert.equal(killed.signal, "SIGKILL");

  // `baton show` is the first command to touch the run after the crash: it must not say running.
  const show = await runBaton(repo, ["show", "1"]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^status: +failed \(interrupted: .*\)$/m);
  const runs = await runBaton(repo, ["runs"]);
  assert.equal(runs.code, 0, runs.stderr);
  assert.match(runs.stdout, new RegExp(`^1 +${runId} +failed +`, "m"));
  assert.match((await runBaton(repo, ["runs", "--status", "failed"])).stdout, new RegExp(`^1 +${runId} +failed`, "m"));
  assert.equal((await runBaton(repo, ["runs", "--status", "running"])).stdout, "No runs with status running. See them all with: baton runs\n");
  const listed = linesOf((await runBaton(repo, ["runs", "--json"])).stdout).map((line) => JSON.parse(line) as { id: string; status: string });
  assert.deepEqual(listed.map((row) => [row.id, row.status]), [[runId, "failed"]]);
  const showJson = JSON.parse((await runBaton(repo, ["show", "1", "--json"])).stdout) as { status: string; error?: ErrorInfo };
  assert.equal(showJson.status, "failed");
  assert.equal(showJson.error?.code, "interrupted");

  const events = await readEvents(repo, runId);
  assert.deepEqual(events.map((event) => event.seq), events.map((_, index) => index + 1));
  assert.equal(eventsOfType(events, "run.started").length, 1, "one run.started");
  const finals = events.filter((event) => isFinalType(event.type));
  assert.equal(finals.length, 1, "exactly one final event");
  assert.equal(events.at(-1), finals[0], "and it is the last");
  assert.equal(finals[0]?.type, "run.failed");
  assert.equal((finals[0]?.data["error"] as ErrorInfo).code, "interrupted");
  // Recovering again (another command touching the run) changes nothing.
  await runBaton(repo, ["events", "1"]);
  assert.equal((await readEvents(repo, runId)).length, events.length);
});

test("kill -9 of baton run mid tool call: the next command closes the tool call, the turn and the agent session, then fails the run", async (t) => {
  const repo = await makeRepo("cli-kill9-tool-");
  t.after(() => killProcessesUnder(repo));
  const script = await writeScript(repo, "long-tool.json", [{ say: "building" }, { run: "sleep 300" }, { say: "never said" }]);
  const run = startBaton(repo, ["run", "Build it", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  const started = await waitForEvent(repo, runId, "tool.started", (event) => event.type === "tool.started");
  await waitFor("the tool call's command to run", () => liveProcessesUnder(repo).some((info) => info.cmdline === "sleep 300"));

  run.child.kill("SIGKILL");
  assert.equal((await run.done).signal, "SIGKILL");
  const before = await readEvents(repo, runId);
  assert.ok(openStartsOf(before).length >= 3, "the dead writer left the tool call, the turn and the agent session open");

  const runs = await runBaton(repo, ["runs"]);

  assert.equal(runs.code, 0, runs.stderr);
  const events = await readEvents(repo, runId);
  assert.deepEqual(events.slice(0, before.length), before, "recovery only appends");
  const added = events.slice(before.length);
  assert.deepEqual(added.map((event) => event.type), ["tool.completed", "turn.completed", "agent.finished", "run.failed"]);
  const [tool, turn] = added;
  assert.equal(tool?.data["call"], started.data["call"]);
  assert.equal(tool?.data["status"], "cancelled");
  assert.equal((tool?.data["error"] as ErrorInfo).code, "interrupted");
  assert.match((tool?.data["error"] as ErrorInfo).message, /stopped before the run ended \(pid \d+\)/);
  assert.equal(turn?.data["stop_reason"], "cancelled");
  assert.equal((added.at(-1)?.data["error"] as ErrorInfo).code, "interrupted");
  assert.deepEqual(openStartsOf(events), [], "every start has its end");
  assertEverythingStartedEnded(events);
  // Baton died without ending its agent's command; the recovery of its run does.
  await waitFor("the dead run's command to end", () => liveProcessesUnder(repo).length === 0, 10_000);
});

test("the agent crashing mid-turn fails the run with agent_exited naming exit code 3, and closes what it left open", async () => {
  const repo = await makeRepo("cli-crash-");
  const script = await writeScript(repo, "crash.json", [
    { say: "Starting the work" },
    { run: "echo before the crash" },
    // A tool call the agent announces and never finishes: Baton must end it for the agent.
    { update: { sessionUpdate: "tool_call", toolCallId: "call_left_open", title: "Run a long build", kind: "execute", status: "pending", rawInput: { command: "make" } } },
    { crash: 3 },
  ]);

  const result = await runBaton(repo, ["run", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 1, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  assert.deepEqual(eventsOfType(events, "agent.message").map((event) => event.data["text"]), ["Starting the work"]);
  const failed = events.at(-1) as Envelope;
  assert.equal(failed.type, "run.failed");
  const error = failed.data["error"] as ErrorInfo;
  assert.equal(error.code, "agent_exited");
  assert.match(error.message, /exited with code 3\b/);
  assertEverythingStartedEnded(events);
  const leftOpen = eventsOfType(events, "tool.completed").find((event) => event.data["call"] === "call_left_open");
  assert.equal(leftOpen?.data["status"], "failed");
  const turn = eventsOfType(events, "turn.completed")[0];
  assert.equal(turn?.data["stop_reason"], "error");
  assert.equal((turn?.data["error"] as ErrorInfo).code, "agent_exited");
  assert.equal(eventsOfType(events, "agent.finished")[0]?.data["exit_code"], 3);
  assert.equal(events.filter((event) => isFinalType(event.type)).length, 1);
});

test("an agent answering the prompt with a JSON-RPC error fails the run; turn.completed carries the error", async () => {
  const repo = await makeRepo("cli-fail-");
  const script = await writeScript(repo, "fail.json", [{ say: "Trying" }, { fail: { code: -32603, message: "boom" } }]);

  const result = await runBaton(repo, ["run", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 1, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const turn = eventsOfType(events, "turn.completed");
  assert.equal(turn.length, 1);
  assert.equal(turn[0]?.data["stop_reason"], "error");
  assert.deepEqual(turn[0]?.data["error"], { code: "acp_error_-32603", message: "boom" });
  const failed = events.at(-1) as Envelope;
  assert.equal(failed.type, "run.failed");
  assert.match((failed.data["error"] as ErrorInfo).message, /boom/);
  assertEverythingStartedEnded(events);

  const show = await runBaton(repo, ["show", "1"]);
  assert.match(show.stdout, /^status: +failed \(agent_error: boom/m);
});
