import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { fakeAgentBinPath } from "@baton/testkit/launch";
import { makeRepo, parseNdjson, startBaton, waitForEvent, waitForOnlyRun, writeScript } from "./cli-harness.ts";
import { FAST_RETRY, finalEvent, ofType, runScripted, turnReasons } from "./reliability-harness.ts";

const rateLimited = { fail: { code: -32603, message: "Internal error: API Error: 429 Too Many Requests: rate limit exceeded" } };
const overloaded = { fail: { code: -32603, message: "Internal error: API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}" } };
const unauthorized = { fail: { code: -32000, message: "API Error: 401 {\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}" } };
const done = [{ write: { path: "result.txt", content: "done\n" } }, { say: "Done." }];

test("rate_limited: the turn is sent again on the same session after the scheduled wait, and the run succeeds", async () => {
  const run = await runScripted("rate-limited", { turns: [[rateLimited], done] }, { config: FAST_RETRY });
  assert.equal(run.code, 0, run.stderr);
  const [error] = ofType(run.events, "provider.error");
  assert.deepEqual([error?.["class"], error?.["status"], error?.["source"]], ["rate_limited", 429, "error"]);
  assert.deepEqual(ofType(run.events, "retry.scheduled"), [{ what: "turn", class: "rate_limited", attempt: 1, max_attempts: 3, delay_ms: 100 }]);
  assert.deepEqual(turnReasons(run.events), ["task", "resend"]);
  assert.equal(new Set(ofType(run.events, "turn.started").map((t) => t["session"])).size, 1, "one session");
  assert.equal(finalEvent(run.events)?.data["status"], "succeeded");
});

test("a provider's retry-after is waited for; one asking for more than the maximum is not, and the agent is asked to hand back", async () => {
  const asking = (seconds: number) => ({ fail: { code: -32603, message: `Internal error: API Error: 429 rate limit exceeded; retry-after: ${seconds}` } });
  const waited = await runScripted("retry-after", { turns: [[asking(1)], done] }, { config: FAST_RETRY });
  assert.equal(waited.code, 0, waited.stderr);
  assert.equal(ofType(waited.events, "retry.scheduled")[0]?.["delay_ms"], 1_000);
  const refused = await runScripted("retry-after-long", { turns: [[{ write: { path: "partial.txt", content: "p" } }, asking(600)], [{ say: "Handing back." }]] }, { config: FAST_RETRY });
  assert.equal(refused.code, 3, refused.stderr);
  assert.equal(ofType(refused.events, "retry.scheduled").length, 0);
  assert.deepEqual(ofType(refused.events, "handback.requested"), [{ reason: "provider", class: "rate_limited" }]);
  const end = finalEvent(refused.events);
  assert.deepEqual([end?.data["stopped_by"], end?.data["provider_error"], end?.data["handed_back"]], ["provider", "rate_limited", true]);
});

test("overloaded past its waits, with changes in the worktree: committed, stopped by the provider, exit 3", async () => {
  const turns = { turns: [[{ write: { path: "half.txt", content: "half\n" } }, overloaded], [overloaded], [overloaded], [overloaded]] };
  const run = await runScripted("overloaded", turns, { config: FAST_RETRY });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(ofType(run.events, "retry.scheduled").map((r) => [r["class"], r["attempt"], r["delay_ms"]]), [["overloaded", 1, 50], ["overloaded", 2, 60]]);
  assert.deepEqual(turnReasons(run.events), ["task", "resend", "resend", "handback"]);
  assert.ok(ofType(run.events, "provider.error").every((e) => e["class"] === "overloaded"));
  assert.equal(ofType(run.events, "git.committed").length, 1);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, end?.data["status"], end?.data["stopped_by"], end?.data["provider_error"], end?.data["handed_back"]], ["run.completed", "stopped", "provider", "overloaded", false]);
});

test("overloaded past its waits with nothing written: the run fails with the provider's class, exit 1", async () => {
  const run = await runScripted("overloaded-empty", { turns: [[overloaded], [overloaded], [overloaded], [overloaded]] }, { config: FAST_RETRY });
  assert.equal(run.code, 1, run.stderr);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, end?.data["provider_error"]], ["run.failed", "overloaded"]);
});

test("fallback_model: once the overload outlasts its waits the session switches model, checks it, and resends at once", async () => {
  const run = await runScripted("fallback", { turns: [[overloaded], [overloaded], [overloaded], done] }, { config: `${FAST_RETRY}\n[session]\nfallback_model = "small-model"\n` });
  assert.equal(run.code, 0, run.stderr);
  const [switched] = ofType(run.events, "model.switched");
  assert.deepEqual([switched?.["from"], switched?.["to"], switched?.["model"], switched?.["reason"]], ["fake-model", "small-model", "small-model", "overloaded"]);
  assert.deepEqual(turnReasons(run.events), ["task", "resend", "resend", "resend"]);
  assert.equal(ofType(run.events, "retry.scheduled").length, 2, "no wait before the resend on the fallback model");
});

test("unauthorized is never resent: the agent is asked to hand back at once", async () => {
  const run = await runScripted("unauthorized", { turns: [[{ write: { path: "w.txt", content: "w" } }, unauthorized], [{ say: "Handing back what I have." }]] }, { config: FAST_RETRY });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(ofType(run.events, "retry.scheduled").length, 0);
  assert.equal(ofType(run.events, "provider.error")[0]?.["class"], "unauthorized");
  assert.deepEqual(turnReasons(run.events), ["task", "handback"]);
  assert.deepEqual([finalEvent(run.events)?.data["stopped_by"], finalEvent(run.events)?.data["provider_error"]], ["provider", "unauthorized"]);
});

test("a provider refusal the agent hands back after: with a change it is kept (stopped, exit 3); with nothing to keep the run fails with the class (exit 1)", async () => {
  const handedBack = [{ say: "Handing back: nothing done." }];
  const kept = await runScripted("refused-kept", { turns: [[{ write: { path: "w.txt", content: "w\n" } }, unauthorized], handedBack] }, { config: FAST_RETRY });
  assert.equal(kept.code, 3, kept.stderr);
  assert.equal(ofType(kept.events, "git.committed").length, 1);
  assert.deepEqual(
    [finalEvent(kept.events)?.type, finalEvent(kept.events)?.data["status"], finalEvent(kept.events)?.data["stopped_by"], finalEvent(kept.events)?.data["provider_error"], finalEvent(kept.events)?.data["handed_back"]],
    ["run.completed", "stopped", "provider", "unauthorized", true],
  );

  const empty = await runScripted("refused-empty", { turns: [[unauthorized], handedBack] }, { config: FAST_RETRY });
  assert.equal(empty.code, 1, empty.stderr);
  // The agent did hand back, but there is no work to keep: nothing is committed, and the run failed.
  assert.deepEqual(turnReasons(empty.events), ["task", "handback"]);
  assert.equal(ofType(empty.events, "git.committed").length, 0);
  const end = finalEvent(empty.events);
  assert.equal(end?.type, "run.failed");
  assert.equal(end?.data["provider_error"], "unauthorized");
  const error = end?.data["error"] as { code: string; message: string } | undefined;
  assert.equal(error?.code, "provider_error");
  assert.match(error?.message ?? "", /^the model provider stopped the run \(unauthorized\): API Error: 401/);
});

test("the live view of a provider failure with nothing to keep says failed, naming the class, and never that work was committed", async () => {
  const repo = await makeRepo("cli-refused-live-");
  await writeFile(join(repo, ".baton", "config.toml"), FAST_RETRY);
  const script = await writeScript(repo, "s.json", { turns: [[unauthorized], [{ say: "Handing back." }]] });
  const child = startBaton(repo, ["run", "Go", "--script", script]);
  const result = await child.done;
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /✘ failed \(provider_error\): the model provider stopped the run \(unauthorized\).* · model provider: unauthorized/);
  assert.doesNotMatch(result.stdout, /work committed|■ stopped/);
});

test("a turn the agent ends as done with the entry's provider-error words counts as failed, and is resent", async () => {
  const run = await runScripted("words", { turns: [[{ say: "API Error: 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit" }], done] }, { config: FAST_RETRY });
  assert.equal(run.code, 0, run.stderr);
  const [error] = ofType(run.events, "provider.error");
  assert.deepEqual([error?.["class"], error?.["source"]], ["rate_limited", "message"]);
  assert.deepEqual(turnReasons(run.events), ["task", "resend"]);
});

test("an error that is not the provider's fails the run as before, with no retry", async () => {
  const run = await runScripted("other", { turns: [[{ fail: { code: -32603, message: "Internal error: tool registry is corrupt" } }]] }, { config: FAST_RETRY });
  assert.equal(run.code, 1);
  assert.equal(ofType(run.events, "provider.error")[0]?.["class"], "other");
  assert.equal(ofType(run.events, "retry.scheduled").length, 0);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, (end?.data["error"] as { code?: string })?.code, end?.data["provider_error"]], ["run.failed", "agent_error", undefined]);
});

test("a wait that would run past the timeout is not waited: the agent hands back instead", async () => {
  const slow = `\n[retry]\nrate_limited = ["30s"]\njitter = 0\n`;
  const run = await runScripted("wait-past-limit", { turns: [[{ write: { path: "w.txt", content: "w" } }, rateLimited], [{ say: "Handing back." }]] }, { config: slow, args: ["--timeout", "20s"] });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(ofType(run.events, "retry.scheduled").length, 0);
  assert.deepEqual(turnReasons(run.events), ["task", "handback"]);
});

test("Ctrl-C during a wait for the provider cancels the run at once", async () => {
  const repo = await makeRepo("cli-wait-cancel-");
  await writeFile(join(repo, ".baton", "config.toml"), '[retry]\nrate_limited = ["60s"]\njitter = 0\n');
  const script = await writeScript(repo, "s.json", { turns: [[rateLimited], done] });
  const child = startBaton(repo, ["run", "Wait for it", "--agent", "fake", "--script", script, "--json"]);
  try {
    const runId = await waitForOnlyRun(repo);
    const scheduled = await waitForEvent(repo, runId, "retry.scheduled", (event) => event.type === "retry.scheduled");
    child.child.kill("SIGINT");
    const result = await child.done;
    assert.equal(result.code, 130, result.stderr);
    // Had it waited the minute out, it could not have ended before the wait was over.
    assert.equal(scheduled.data["delay_ms"], 60_000);
    assert.ok(Date.now() < Date.parse(scheduled.at) + 60_000, "did not wait the minute out");
    assert.equal(finalEvent(parseNdjson<Envelope>(result.stdout))?.type, "run.cancelled");
  } finally {
    child.kill();
  }
});

test("the fallback model is switched to once; an overload that outlasts the second round of waits is handed back", async () => {
  const turns = { turns: [[{ write: { path: "f.txt", content: "f" } }, overloaded], [overloaded], [overloaded], [overloaded], [overloaded], [overloaded], [overloaded]] };
  const run = await runScripted("fallback-once", turns, { config: `${FAST_RETRY}\n[session]\nfallback_model = "small-model"\n` });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(ofType(run.events, "model.switched").length, 1);
  assert.equal(ofType(run.events, "retry.scheduled").length, 4, "the waits start over after the switch");
  assert.deepEqual(turnReasons(run.events), ["task", "resend", "resend", "resend", "resend", "resend", "handback"]);
  assert.deepEqual([finalEvent(run.events)?.data["stopped_by"], finalEvent(run.events)?.data["provider_error"]], ["provider", "overloaded"]);
});

test("an agent that will not switch to the fallback model is asked to hand back, and the run says why", async () => {
  const config = `${FAST_RETRY}\n[session]\nfallback_model = "small-model"\n[agents.fake]\nargs = ${JSON.stringify([fakeAgentBinPath, "--fixed-model", "big-model"])}\n`;
  const run = await runScripted("fallback-refused", { turns: [[{ write: { path: "g.txt", content: "g" } }, overloaded], [overloaded], [overloaded], [{ say: "Handing back." }]] }, { config });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(ofType(run.events, "model.switched").length, 0);
  const warning = ofType(run.events, "log").find((log) => log["code"] === "fallback_failed");
  assert.match(String(warning?.["message"]), /could not switch to the fallback model small-model: the agent reports model "big-model"/);
  assert.deepEqual(turnReasons(run.events), ["task", "resend", "resend", "handback"]);
  assert.deepEqual([finalEvent(run.events)?.data["stopped_by"], finalEvent(run.events)?.data["handed_back"]], ["provider", true]);
});
