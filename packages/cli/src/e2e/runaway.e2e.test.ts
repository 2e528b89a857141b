import assert from "node:assert/strict";
import { test } from "node:test";
import { cliEnv } from "./cli-harness.ts";
import { finalEvent, ofType, runScripted, turnReasons } from "./reliability-harness.ts";

/**
 * Seconds of silence that make a stall. A turn that must not stall has only the agent's own
 * reaction times between its updates: the stall must be far beyond what a loaded machine's
 * scheduler can add to them, or a test could see a stall that the script did not play.
 */
const STALL_S = 2;
const STALL = `\n[agents.fake]\nstall_timeout = ${STALL_S}\n`;

test("a stalled turn is cancelled and sent again once, behind a note: the run goes on", async () => {
  const run = await runScripted("stall-once", { turns: [[{ say: "thinking" }, { sleep: 60_000 }], [{ write: { path: "s.txt", content: "s" } }, { say: "done" }]] }, { config: STALL });
  assert.equal(run.code, 0, run.stderr);
  const [stall] = ofType(run.events, "stall.detected");
  assert.equal(stall?.["action"], "resend");
  assert.ok((stall?.["idle_ms"] as number) >= STALL_S * 1000);
  assert.deepEqual(turnReasons(run.events), ["task", "resend"]);
  assert.equal(ofType(run.events, "turn.completed")[0]?.["stop_reason"], "cancelled");
});

test("a second stall fails the run with error code stalled", async () => {
  const run = await runScripted("stall-twice", { turns: [[{ sleep: 60_000 }], [{ sleep: 60_000 }]] }, { config: STALL });
  assert.equal(run.code, 1);
  assert.deepEqual(ofType(run.events, "stall.detected").map((s) => s["action"]), ["resend", "fail"]);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, (end?.data["error"] as { code?: string })?.code], ["run.failed", "stalled"]);
});

test("a running tool call is not a stall", async () => {
  // The command runs well past the stall timeout.
  const run = await runScripted("stall-tool", { turns: [[{ run: `sleep ${STALL_S * 1.5}` }, { write: { path: "t.txt", content: "t" } }]] }, { config: STALL });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(ofType(run.events, "stall.detected").length, 0);
});

test("max_repeats: N identical calls bring a notice, one more a hand-back: stopped by repeats, exit 3", async () => {
  const same = Array.from({ length: 8 }, () => ({ run: "echo still in progress" }));
  const run = await runScripted("repeats", { turns: [[{ write: { path: "r.txt", content: "r" } }, ...same], [{ say: "Handing back: it never finished." }]] }, { args: ["--max-repeats", "3"] });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(ofType(run.events, "repeat.detected").map((r) => [r["count"], r["action"]]), [[3, "notice"], [4, "handback"]]);
  assert.equal(ofType(run.events, "repeat.detected")[0]?.["notified"], true);
  assert.deepEqual(ofType(run.events, "handback.requested"), [{ reason: "repeat" }]);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.data["status"], end?.data["stopped_by"]], ["stopped", "repeats"]);
});

test("a turn that ends well without the required change gets one reminder; still nothing fails the run with no_output", async () => {
  const failed = await runScripted("no-output", { turns: [[{ say: "All done!" }], [{ say: "Really done." }]] });
  assert.equal(failed.code, 1);
  assert.deepEqual(turnReasons(failed.events), ["task", "reminder"]);
  assert.equal((finalEvent(failed.events)?.data["error"] as { code?: string })?.code, "no_output");
  const reminded = await runScripted("reminded", { turns: [[{ say: "All done!" }], [{ write: { path: "late.txt", content: "late" } }]] });
  assert.equal(reminded.code, 0, reminded.stderr);
  assert.deepEqual(turnReasons(reminded.events), ["task", "reminder"]);
  const none = await runScripted("no-output-none", { turns: [[{ say: "Explained." }]] }, { args: ["--require-output", "none"] });
  assert.equal(none.code, 0, none.stderr);
  assert.deepEqual(turnReasons(none.events), ["task"]);
});

test("an agent that exits mid-turn fails the run with its exit code, its last stderr lines (redacted) and the provider's class", async () => {
  const secret = "sk-live-abcdefghijklmnopqrstuvwxyz0123";
  const turns = [{ stderr: `request failed with key ${secret}` }, { stderr: "Error: API Error: 429 Too Many Requests (rate limit)" }, { crash: 7 }];
  const run = await runScripted("exit-provider", turns, { env: cliEnv({ MY_API_KEY: secret }) });
  assert.equal(run.code, 1);
  const end = finalEvent(run.events);
  const error = end?.data["error"] as { code?: string; message?: string };
  assert.equal(error.code, "agent_exited");
  assert.match(error.message ?? "", /exited with code 7/);
  assert.match(error.message ?? "", /429 Too Many Requests/);
  assert.doesNotMatch(run.stdout, new RegExp(secret));
  assert.equal(end?.data["provider_error"], "rate_limited");
});

test("a stalled agent that does not answer the cancel fails the run with stalled at once", async () => {
  const run = await runScripted("stall-hang", { turns: [[{ hang: 60_000 }]] }, { config: `${STALL}\n[session]\ncancel_grace_ms = 500\n` });
  assert.equal(run.code, 1);
  const end = finalEvent(run.events);
  assert.deepEqual([(end?.data["error"] as { code?: string })?.code], ["stalled"]);
  assert.match((end?.data["error"] as { message?: string })?.message ?? "", /did not answer the cancel/);
  assert.deepEqual(turnReasons(run.events), ["task"]);
});

test("hundreds of identical calls are cut short: the hand-back comes at max_repeats + 1, not at the end", async () => {
  const run = await runScripted("repeats-many", { turns: [[{ write: { path: "m.txt", content: "m" } }, { repeat: { times: 300, steps: [{ run: "true" }] } }], [{ say: "Handing back." }]] }, { args: ["--max-repeats", "5"] });
  assert.equal(run.code, 3, run.stderr);
  assert.ok(ofType(run.events, "tool.started").length < 20, `stopped early: ${ofType(run.events, "tool.started").length} tool calls`);
  assert.equal(finalEvent(run.events)?.data["stopped_by"], "repeats");
});
