import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { SAMPLE_RUN_ID, testTempDir } from "@baton/protocol/testing";
import { goodRunLog, toLines, writeRunLog } from "./fixtures/run-log.ts";
import { formatReport, logValidator } from "./validate-logs.ts";

const validateLogs = await logValidator();

// Broken logs on purpose: made outside the validated part of the suite root.
const scratch = () => testTempDir("validate-logs-", { validateLogs: false });

test("a valid run log passes, found at any depth, and is counted", async () => {
  const root = await scratch();
  await writeRunLog(join(root, "a", "deep", "repo"), toLines(goodRunLog()));
  await writeRunLog(join(root, "b"), "");
  await writeFile(join(root, "acp.jsonl"), "not a run log\n");
  const report = await validateLogs(root);
  assert.deepEqual(report, { logs: 2, events: 9, skipped: 0, problems: [] });
  assert.deepEqual(formatReport(report, "docs/schema/events.v1.json"), ["validated 9 events in 2 logs against docs/schema/events.v1.json"]);
});

/** Validates one log with the given lines, and returns its problems as `line: error`. */
async function problemsOf(text: string): Promise<string[]> {
  const root = await scratch();
  const file = await writeRunLog(root, text);
  const report = await validateLogs(root);
  assert.equal(report.logs, 1);
  return report.problems.map((problem) => {
    assert.equal(problem.file, file);
    return `${problem.line}: ${problem.error}`;
  });
}

test("an event of a known type with bad data is reported by file and line, with the type's own errors", async () => {
  const events = goodRunLog();
  events[5] = { ...events[5], data: { ...(events[5]!["data"] as object), status: "exploded", duration_ms: -1 } };
  assert.deepEqual(await problemsOf(toLines(events)), [
    `6: tool.completed: /data/status must be equal to one of the allowed values: ["completed","failed","cancelled"]; /data/duration_ms must be >= 0`,
  ]);
});

test("a bad envelope is reported with the envelope's errors", async () => {
  const events = goodRunLog();
  events[0] = { ...events[0], run: "run_bad", at: "yesterday" };
  const problems = await problemsOf(toLines(events));
  assert.match(problems[0]!, /^1: run\.created: \/run must match pattern .*; \/at must match pattern/);
});

test("seq must start at 1 and have no gaps", async () => {
  const events = goodRunLog();
  assert.deepEqual(await problemsOf(toLines(events.slice(1))), ["1: seq 2 where 1 was due (seq starts at 1, without gaps)"]);
  assert.deepEqual(await problemsOf(toLines([...events.slice(0, 3), ...events.slice(4)])), ["4: seq 5 where 4 was due (seq starts at 1, without gaps)"]);
  assert.deepEqual(await problemsOf(toLines([events[0], events[0]])), ["2: seq 1 where 2 was due (seq starts at 1, without gaps)"]);
  const { seq: _seq, ...noSeq } = events[1]!;
  assert.deepEqual(await problemsOf(toLines([events[0], noSeq])), ["2: no seq: every logged event has one"]);
});

test("a log's lines are JSON, end with a newline, hold no ephemeral event, one run, and nothing after the end", async () => {
  const events = goodRunLog();
  const good = toLines(events);
  const torn = await problemsOf(good.slice(0, -40));
  assert.equal(torn.length, 2);
  assert.equal(torn[0], "9: the last line has no newline (a torn write)");
  assert.match(torn[1]!, /^9: not JSON: /);
  assert.deepEqual(await problemsOf(`${good}\n`), ["10: a blank line"]);
  const delta = { v: 1, run: SAMPLE_RUN_ID, at: "2026-11-29T10:00:00.500Z", type: "agent.delta", data: { session: "s", kind: "text", text: "x" } };
  assert.deepEqual(await problemsOf(toLines([events[0], delta, { ...events[1], seq: 2 }])), ["2: ephemeral agent.delta in a log"]);
  const late = { ...events[6], seq: 10 };
  assert.deepEqual(await problemsOf(toLines([...events, late])), ["10: turn.completed after the final run.completed on line 9"]);
  const other = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1B";
  assert.deepEqual(await problemsOf(toLines([events[0], { ...events[1], run: other }])), [`2: run ${other} in the log of ${SAMPLE_RUN_ID}`]);
});

test("a failed run resumed by a run.started with resumed: true goes on; another end, or a start that is no resume, does not", async () => {
  const events = goodRunLog();
  const failed = { ...events[8], type: "run.failed", data: { error: { code: "interrupted", message: "its writer died" } } };
  const resumed = { ...events[1], seq: 10, data: { ...(events[1]!["data"] as object), attempt: 2, resumed: true } };
  const ended = { ...events[8], seq: 11 };
  assert.deepEqual(await problemsOf(toLines([...events.slice(0, 8), failed, resumed, ended])), []);
  assert.deepEqual(await problemsOf(toLines([...events, resumed])), ["10: run.started after the final run.completed on line 9"]);
  const fresh = { ...resumed, data: { ...(resumed.data as object), resumed: false } };
  assert.deepEqual(await problemsOf(toLines([...events.slice(0, 8), failed, fresh])), ["10: run.started after the final run.failed on line 9"]);
});

test("in a log that has ended, a start without its end is reported on the start's line", async () => {
  const events = goodRunLog();
  // Without tool.completed, turn.completed and agent.finished: what a crashed writer's recovery used to leave.
  const ended = [...events.slice(0, 5), { ...events[8], seq: 6 }];
  assert.deepEqual(await problemsOf(toLines(ended)), [
    `3: agent.started (session "ses_1") has no agent.finished before the final run.completed on line 6: every start has an end`,
    `4: turn.started (session "ses_1", turn 1) has no turn.completed before the final run.completed on line 6: every start has an end`,
    `5: tool.started (call "c_3f9a1b2c4d5e") has no tool.completed before the final run.completed on line 6: every start has an end`,
  ]);
  assert.deepEqual(await problemsOf(toLines(events.slice(0, 5))), [], "a run still going may have open starts");
});

test("an unknown type and extra fields are valid in a log", async () => {
  const events = goodRunLog();
  events.splice(8, 0, { v: 1, run: SAMPLE_RUN_ID, seq: 9, at: "2026-11-29T10:00:08.500Z", type: "review.posted", data: { stage: "x" }, extra: 1 });
  events[9] = { ...events[9], seq: 10 };
  assert.deepEqual(await problemsOf(toLines(events)), []);
});

test("logs in the root's unvalidated folder are skipped and counted", async () => {
  const root = await scratch();
  await writeRunLog(join(root, "unvalidated", "x"), "garbage\n");
  await writeRunLog(join(root, "checked"), toLines(goodRunLog()));
  const report = await validateLogs(root);
  assert.deepEqual(report, { logs: 1, events: 9, skipped: 1, problems: [] });
  assert.match(formatReport(report, "s.json")[0]!, /^validated 9 events in 1 logs against s\.json \(1 logs in unvalidated\/ skipped\)$/);
});

test("the report of a failed check lists file:line: error and caps the list", () => {
  const problems = Array.from({ length: 5 }, (_, i) => ({ file: "/r/events.jsonl", line: i + 1, error: "bad" }));
  assert.deepEqual(formatReport({ logs: 1, events: 5, skipped: 0, problems }, "s.json", 2), [
    "✖ validated 5 events in 1 logs against s.json: 5 problems",
    "/r/events.jsonl:1: bad",
    "/r/events.jsonl:2: bad",
    "… and 3 more",
  ]);
});

/** Runs the suite launcher on the fixture test file, as `npm run test:unit` runs it on the suite. */
function launch(env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv["NODE_TEST_CONTEXT"]; // else the inner `node --test` reports to us, not to its stdout
  const fixture = join(import.meta.dirname, "fixtures", "writes-run-logs.fixture.ts");
  return spawnSync(process.execPath, [join(import.meta.dirname, "run.ts"), fixture], { env: childEnv, encoding: "utf8", cwd: join(import.meta.dirname, "..") });
}

test("the suite launcher validates the logs tests leave under BATON_TEST_ROOT, prints the count, and removes the root", () => {
  const run = launch({ BAD_LOG: "0" });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /ℹ pass 1\n[\s\S]*validated 9 events in 1 logs against docs\/schema\/events\.v1\.json\n$/);
});

test("the suite launcher fails the whole run on one invalid event, naming file and line, although every test passed", async () => {
  const run = launch({ BAD_LOG: "1" });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /ℹ pass 1\n/);
  assert.match(run.stderr, /✖ validated 18 events in 2 logs against docs\/schema\/events\.v1\.json: 1 problems\n/);
  assert.match(run.stderr, /\/bad-[^/]+\/\.baton\/runs\/run_\w+\/events\.jsonl:3: agent\.started: \/data must have required property 'protocol_version'\n/);
  const kept = /kept (.+) for inspection/.exec(run.stderr)?.[1];
  assert.ok(kept !== undefined && existsSync(kept), "the failing logs are kept");
  await rm(kept, { recursive: true, force: true });
});
