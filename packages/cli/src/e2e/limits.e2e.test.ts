import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, makeRepo, runBaton, writeScript } from "./cli-harness.ts";
import { finalEvent, ofType, runScripted, turnReasons } from "./reliability-harness.ts";

const handBack = [{ say: "Handing back: the greeting is written, the rest is left." }];

/**
 * A timeout counts from the run's start, agent start-up included, and its marks (60%, 80%, 95%)
 * must find the agent in its first turn with its file written. Long enough that a loaded
 * machine's slow start-up (seconds, at worst) stays far inside the first mark.
 */
const TIMEOUT = "8s";

test("at 95% of the timeout the turn is cancelled and the agent hands back: stopped by time, work committed, exit 124", async () => {
  const run = await runScripted("timeout", { turns: [[{ write: { path: "greeting.txt", content: "hello\n" } }, { sleep: 60_000 }], handBack] }, { args: ["--timeout", TIMEOUT] });
  assert.equal(run.code, 124, run.stderr);
  const warnings = ofType(run.events, "limit.warning");
  assert.deepEqual(warnings.map((w) => [w["limit"], w["threshold"]]), [["time", 0.6], ["time", 0.8]]);
  // The fake agent takes prompts mid-turn, so it was told.
  assert.ok(warnings.every((w) => w["notified"] === true));
  assert.deepEqual(ofType(run.events, "limit.reached").map((r) => [r["limit"], r["action"]]), [["time", "handback"]]);
  assert.deepEqual(ofType(run.events, "handback.requested"), [{ reason: "limit", limit: "time" }]);
  assert.deepEqual(turnReasons(run.events).filter((r) => r !== "notice"), ["task", "handback"]);
  assert.ok(turnReasons(run.events).includes("notice"));
  assert.equal(ofType(run.events, "git.committed").length, 1);
  const end = finalEvent(run.events);
  assert.equal(end?.type, "run.completed");
  assert.deepEqual({ status: end?.data["status"], by: end?.data["stopped_by"], handedBack: end?.data["handed_back"] }, { status: "stopped", by: "time", handedBack: true });
  assert.ok(typeof end?.data["commit"] === "string");
  assert.ok(ofType(run.events, "budget.updated").length >= 2, "budget.updated after each turn and tool call");
});

test("an agent that does not hand back before the timeout is cancelled at the limit: stopped by time, not handed back, exit 124", async () => {
  const run = await runScripted("timeout-hard", { turns: [[{ write: { path: "a.txt", content: "a\n" } }, { sleep: 60_000 }], [{ sleep: 60_000 }]] }, { args: ["--timeout", TIMEOUT] });
  assert.equal(run.code, 124, run.stderr);
  assert.deepEqual(ofType(run.events, "limit.reached").map((r) => r["action"]), ["handback", "cancel"]);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, end?.data["stopped_by"], end?.data["handed_back"]], ["run.completed", "time", false]);
  assert.equal(ofType(run.events, "git.committed").length, 1);
});

test("a cost budget: the hand-back at 95% of the reported spend; exit 3, stopped by cost", async () => {
  const turns = {
    turns: [[{ write: { path: "work.txt", content: "w\n" } }, { usage: { input_tokens: 10, output_tokens: 10, cost_usd: 0.5 } }, { usage: { cost_usd: 0.47 } }, { sleep: 60_000 }], handBack],
  };
  const run = await runScripted("cost", turns, { args: ["--max-cost", "1"] });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(ofType(run.events, "limit.reached").map((r) => [r["limit"], r["action"]]), [["cost", "handback"]]);
  // One report took the spend from 50% to 97%: both marks are warnings, the agent is told once.
  assert.deepEqual(ofType(run.events, "limit.warning").map((w) => [w["threshold"], w["notified"]]), [[0.6, false], [0.8, true]]);
  assert.equal(turnReasons(run.events).filter((r) => r === "notice").length, 1);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.data["status"], end?.data["stopped_by"]], ["stopped", "cost"]);
  const budget = ofType(run.events, "budget.updated").at(-1);
  assert.equal(budget?.["limit"], "cost");
  assert.deepEqual(budget?.["limits"], { timeout_ms: 600_000, cost_usd: 1 });
});

test("a cap on tool calls: the hand-back one call before it, the stop at the call past it: exit 3", async () => {
  const calls = Array.from({ length: 6 }, (_, i) => ({ run: `echo step ${i}` }));
  const run = await runScripted("tool-calls", { turns: [[{ write: { path: "x.txt", content: "x\n" } }, ...calls], handBack] }, { args: ["--max-tool-calls", "4"] });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(ofType(run.events, "limit.reached").map((r) => [r["limit"], r["action"]]), [["tool_calls", "handback"]]);
  assert.deepEqual(turnReasons(run.events).filter((r) => r !== "notice"), ["task", "handback"]);
  assert.equal(finalEvent(run.events)?.data["stopped_by"], "tool_calls");
  assert.equal(ofType(run.events, "run.created")[0]?.["limits"] && (ofType(run.events, "run.created")[0]?.["limits"] as Record<string, number>)["tool_calls"], 4);
});

test("an unattended run without a timeout is refused before anything starts; so is --yes", async () => {
  const repo = await makeRepo("cli-no-timeout-");
  const script = await writeScript(repo, "s.json", [{ write: { path: "a.txt", content: "a" } }]);
  const env = cliEnv();
  delete env["BATON_TIMEOUT"];
  const refused = await runBaton(repo, ["run", "Go", "--script", script], { env });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^baton: an unattended run \(no terminal on stdin, or --yes\) needs a timeout: pass --timeout 30m/);
  assert.equal(linesIn(refused.stderr), 1);
  const yes = await runBaton(repo, ["run", "Go", "--script", script, "--yes"], { env });
  assert.equal(yes.code, 2);
  assert.equal((await runBaton(repo, ["runs", "--json"])).stdout, "", "no run was created");
  await writeFile(join(repo, ".baton", "config.toml"), '[limits]\ntimeout = "5m"\n');
  const configured = await runBaton(repo, ["run", "Go", "--script", script, "--yes", "--json"], { env });
  assert.equal(configured.code, 0, configured.stderr);
  assert.match(configured.stdout.split("\n")[0] ?? "", /"limits":\{"timeout_ms":300000\}/);
});

test("a cost or token budget for an agent that reports none is refused, naming the limit and the agent; bad limit values are one line", async () => {
  const repo = await makeRepo("cli-no-cost-");
  await writeFile(join(repo, ".baton", "config.toml"), "[agents.fake]\nreports_cost = false\n");
  const script = await writeScript(repo, "s.json", [{ write: { path: "a.txt", content: "a" } }]);
  const refused = await runBaton(repo, ["run", "Go", "--script", script, "--max-cost", "2"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /a cost budget cannot be enforced for agent "fake": it reports no cost/);
  await writeFile(join(repo, ".baton", "config.toml"), "[agents.fake]\nreports_tokens = false\n");
  const tokens = await runBaton(repo, ["run", "Go", "--script", script, "--max-tokens", "1000"]);
  assert.equal(tokens.code, 2);
  assert.match(tokens.stderr, /a token budget cannot be enforced for agent "fake": it reports no token usage/);
  for (const [flag, value, words] of [["--timeout", "soon", /--timeout: "soon" is not a duration/], ["--max-tokens", "1.5", /--max-tokens: "1.5" is not a whole number/], ["--max-cost", "-1", /--max-cost: "-1" is not a positive number/], ["--max-repeats", "1", /--max-repeats: "1" is not a whole number of at least 2/]] as const) {
    const bad = await runBaton(repo, ["run", "Go", "--script", script, flag, value]);
    assert.equal(bad.code, 2, `${flag} ${value}`);
    assert.match(bad.stderr, words);
  }
  assert.equal((await runBaton(repo, ["runs", "--json"])).stdout, "", "no run was created");
});

function linesIn(text: string): number {
  return text.trim().split("\n").length;
}

test("an agent whose entry does not take prompts mid-turn is not told of a warning", async () => {
  const turns = { turns: [[{ write: { path: "w.txt", content: "w" } }, { usage: { cost_usd: 0.65 } }, { say: "done" }]] };
  const run = await runScripted("no-notices", turns, { args: ["--max-cost", "1"], config: "[agents.fake]\nnotices = false\n" });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(ofType(run.events, "limit.warning").map((w) => [w["limit"], w["threshold"], w["notified"]]), [["cost", 0.6, false]]);
  assert.deepEqual(turnReasons(run.events), ["task"]);
});
