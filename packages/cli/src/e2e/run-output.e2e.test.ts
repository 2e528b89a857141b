import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { eventSchema, type Envelope } from "@baton/protocol";
import type { ScriptInput } from "@baton/testkit";
import {
  eventsOfType,
  linesOf,
  makeRepo,
  onlyRunId,
  readEventsText,
  readTranscript,
  runBaton,
  sessionUpdates,
  workspacePath,
  writeScript,
} from "./cli-harness.ts";

const SAID = "I will write the greeting into notes/hello.txt and then print it to check.";
const THOUGHT = "The repository is small; one file and one check will do.";
const WRITTEN = "Hello from the fake agent\n";

const TASK_SCRIPT: ScriptInput = [
  { think: THOUGHT },
  { plan: [{ content: "Write notes/hello.txt", status: "in_progress" }, { content: "Print it", status: "pending" }] },
  { say: SAID },
  { write: { path: "notes/hello.txt", content: WRITTEN } },
  { run: "cat notes/hello.txt" },
  { usage: { input_tokens: 1200, output_tokens: 340, cost_usd: 0.0123 } },
  { say: "Done." },
];

type Data = Record<string, unknown>;

test("baton run --json prints only the run's durable events as NDJSON, seq 1..N, exactly the lines of events.jsonl", async () => {
  const repo = await makeRepo("cli-run-json-");
  const script = await writeScript(repo, "task.json", TASK_SCRIPT);

  const result = await runBaton(repo, ["run", "Write a greeting", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const lines = linesOf(result.stdout);
  // Nothing but envelopes of the catalog on stdout.
  const events = lines.map((line) => eventSchema.parse(JSON.parse(line)) as Envelope);
  assert.deepEqual(
    events.map((event) => event.seq),
    events.map((_, index) => index + 1),
    "seq runs 1..N without gaps",
  );
  assert.equal(events[0]?.type, "run.created");
  assert.equal(events.at(-1)?.type, "run.completed");
  assert.equal(new Set(events.map((event) => event.run)).size, 1, "one run");
  const types = events.map((event) => event.type);
  for (const type of ["run.started", "agent.started", "turn.started", "turn.completed", "agent.message", "agent.thought", "plan.updated", "tool.started", "tool.completed", "permission.requested", "permission.resolved", "usage.updated", "file.changed", "agent.finished"]) {
    assert.ok(types.includes(type), `${type} is in the stream`);
  }
  assert.ok(types.indexOf("agent.started") < types.indexOf("turn.started"));
  assert.ok(types.indexOf("turn.started") < types.indexOf("turn.completed"));
  assert.equal(events[0]?.data["task"], "Write a greeting");

  // The message is the joined text of the chunks the agent streamed (it did stream several).
  const runId = events[0]?.run as string;
  const chunks = sessionUpdates(await readTranscript(repo, runId)).filter((update) => update["sessionUpdate"] === "agent_message_chunk");
  assert.ok(chunks.length > 2, "the say step reached Baton as several chunks");
  assert.deepEqual(
    eventsOfType(events, "agent.message").map((event) => event.data["text"]),
    [SAID, "Done."],
  );
  assert.deepEqual(eventsOfType(events, "agent.thought").map((event) => event.data["text"]), [THOUGHT]);
  const plan = eventsOfType<{ entries: Data[] }>(events, "plan.updated")[0]?.data.entries ?? [];
  assert.deepEqual(
    plan.map((entry) => [entry["content"], entry["status"]]),
    [["Write notes/hello.txt", "in_progress"], ["Print it", "pending"]],
  );

  // Every tool call starts, is asked about, is allowed by the default rule, and completes once.
  const started = eventsOfType(events, "tool.started");
  assert.deepEqual(started.map((event) => event.data["kind"]), ["edit", "execute"]);
  for (const start of started) {
    const call = start.data["call"];
    const completions = eventsOfType(events, "tool.completed").filter((event) => event.data["call"] === call);
    assert.equal(completions.length, 1, `one tool.completed for ${String(call)}`);
    const completed = completions[0] as Envelope;
    assert.ok((completed.seq ?? 0) > (start.seq ?? 0));
    assert.equal(completed.data["status"], "completed");
    assert.equal(completed.data["is_error"], false);
    assert.equal(typeof completed.data["duration_ms"], "number");
    const requested = eventsOfType(events, "permission.requested").filter((event) => event.data["call"] === call);
    const resolved = eventsOfType(events, "permission.resolved").filter((event) => event.data["call"] === call);
    assert.equal(requested.length, 1);
    assert.equal(resolved.length, 1);
    assert.deepEqual([resolved[0]?.data["decision"], resolved[0]?.data["rule"], resolved[0]?.data["by"]], ["allow_once", "default:allow", "policy"]);
    assert.ok((requested[0]?.seq ?? 0) < (resolved[0]?.seq ?? 0) && (resolved[0]?.seq ?? 0) < (completed.seq ?? 0));
  }
  const execute = eventsOfType(events, "tool.completed").find((event) => event.data["call"] === started[1]?.data["call"]);
  assert.equal(execute?.data["exit_code"], 0);
  assert.equal(execute?.data["preview"], WRITTEN);
  assert.equal(started[1]?.data["target"], "cat notes/hello.txt");
  const edit = eventsOfType(events, "tool.completed").find((event) => event.data["call"] === started[0]?.data["call"]);
  assert.match(String(edit?.data["preview"]), /^--- \/dev\/null\n\+\+\+ b\/notes\/hello\.txt\n/, "the diff names the file relative to the repository");

  assert.deepEqual(eventsOfType(events, "file.changed").map((event) => event.data), [{ path: "notes/hello.txt", change: "added" }]);
  assert.equal(await readFile(join(await workspacePath(repo, runId), "notes", "hello.txt"), "utf8"), WRITTEN, "the agent really wrote the file, in its worktree");

  const usage = eventsOfType(events, "usage.updated");
  assert.ok(usage.some((event) => event.data["cost_usd"] === 0.0123));
  assert.ok(usage.some((event) => event.data["input_tokens"] === 1200 && event.data["output_tokens"] === 340));
  const completed = events.at(-1) as Envelope;
  assert.deepEqual(completed.data["usage"], { input_tokens: 1200, output_tokens: 340 });
  assert.equal(completed.data["cost_usd"], 0.0123);

  // What --json printed is the log, byte for byte.
  assert.deepEqual(lines, linesOf(await readEventsText(repo, runId)));
});

test("baton run without --json shows messages, tool calls with duration and exit code, and a closing summary", async () => {
  const repo = await makeRepo("cli-run-human-");
  const script = await writeScript(repo, "task.json", [
    { say: SAID },
    { write: { path: "notes/hello.txt", content: WRITTEN } },
    { run: "cat notes/hello.txt" },
    { run: "echo checking >&2; exit 4" },
    { usage: { input_tokens: 1200, output_tokens: 340, cost_usd: 0.0123 } },
    { say: "All done." },
  ]);

  const result = await runBaton(repo, ["run", "Write a greeting", "--agent", "fake", "--script", script]);

  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const out = result.stdout;
  assert.match(out, /^▶ run 1 run_\w+ · agent fake\n/);
  assert.match(out, /task: Write a greeting\n/);
  assert.ok(out.includes(SAID), "the streamed message, whole");
  assert.ok(out.includes("All done."));
  assert.match(out, /⚙ edit Write notes\/hello\.txt\n\s+permission: allow_once \(rule default:allow\)\n\s+✓ completed · \d+(\.\d)? (ms|s)\n/);
  assert.match(out, /⚙ execute Run cat notes\/hello\.txt\n\s+permission: allow_once \(rule default:allow\)\n\s+✓ completed · exit 0 · \d+(\.\d)? (ms|s)\n/);
  assert.match(out, /⚙ execute Run echo checking >&2; exit 4\n\s+permission: allow_once \(rule default:allow\)\n\s+✗ failed · exit 4 · \d+(\.\d)? (ms|s)\n/);
  assert.match(out, /\n✔ succeeded · 1,200 in \/ 340 out tokens · \$0\.0123 · \d+(\.\d)? (ms|s)\n/);
  assert.match(out, /\nNext: baton show 1 · baton events 1 · .*events\.jsonl\n$/);
  assert.ok(!out.includes('{"v":'), "no raw envelopes in the human view");
  assert.match(out, /\n  workspace: worktree .*\.baton\/worktrees\/1-write-a-greeting on baton\/1-write-a-greeting from main @ [0-9a-f]{12}\n/);
  assert.match(out, /\n  ● committed [0-9a-f]{12} on baton\/1-write-a-greeting · 1 file · Write a greeting\n/);
  assert.equal(await readFile(join(await workspacePath(repo, await onlyRunId(repo)), "notes", "hello.txt"), "utf8"), WRITTEN);
});

test("an unknown ACP update and an extension notification become runner.event with native_type only; the run succeeds", async () => {
  const repo = await makeRepo("cli-run-unknown-");
  const script = await writeScript(repo, "unknown.json", [
    { say: "before" },
    { update: { sessionUpdate: "brand_new_kind", x: 1 } },
    { ext: { method: "_baton/ping", params: { secretish: "payload" } } },
    { say: "after" },
  ]);

  const result = await runBaton(repo, ["run", "--agent", "fake", "--script", script, "--json", "--require-output", "none"]);

  assert.equal(result.code, 0, result.stderr);
  // The SDK's complaint about an update it cannot validate is not the user's business.
  assert.equal(result.stderr, "");
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const runnerEvents = eventsOfType(events, "runner.event");
  assert.deepEqual(
    runnerEvents.map((event) => event.data["native_type"]),
    ["session/update:brand_new_kind", "_baton/ping"],
  );
  for (const event of runnerEvents) {
    assert.deepEqual(Object.keys(event.data).sort(), ["native_type", "session"], "no payload fields are carried");
  }
  assert.deepEqual(eventsOfType(events, "agent.message").map((event) => event.data["text"]), ["before", "after"]);
  // In wire order: the unknown update ends the first message and comes before the second.
  const types = events.map((event) => event.type);
  assert.ok(types.indexOf("runner.event") > types.indexOf("agent.message"));
  assert.equal(events.at(-1)?.type, "run.completed");
  assert.equal(await onlyRunId(repo), events[0]?.run);
});
