import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { BUILTIN_AGENTS, SMALL_TOKEN_BUDGET } from "@baton/engine";
import { testTempDir } from "@baton/protocol/testing";
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
  // One report took the spend from 50% to 97%: both marks are warnings, logged before the
  // hand-back it asks for; the agent is told by the hand-back prompt, not by a notice first.
  assert.deepEqual(ofType(run.events, "limit.warning").map((w) => [w["threshold"], w["notified"]]), [[0.6, false], [0.8, false]]);
  assert.deepEqual(
    run.events.filter((e) => ["limit.warning", "limit.reached", "turn.started"].includes(e.type)).map((e) => `${e.type} ${String(e.data["threshold"] ?? e.data["action"] ?? e.data["reason"])}`),
    ["turn.started task", "limit.warning 0.6", "limit.warning 0.8", "limit.reached handback", "turn.started handback"],
  );
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
  for (const [flag, value, words] of [["--timeout", "soon", /--timeout: "soon" is not a duration/], ["--max-tokens", "1.5", /--max-tokens: "1.5" is not a whole number/], ["--max-cost", "-1", /--max-cost: "-1" is not a positive number/], ["--max-repeats", "1", /--max-repeats: "1" is not a whole number from 2 to 100/]] as const) {
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

/** The run's events of `types`, in order, each with the detail whose order matters here. */
function sequence(events: readonly { type: string; data: Record<string, unknown> }[], types: readonly string[]): string[] {
  return events.filter((e) => types.includes(e.type)).map((e) => {
    const d = e.data;
    if (e.type === "limit.warning") return `warning ${String(d["threshold"])}${d["notified"] === true ? " told" : ""}`;
    if (e.type === "limit.reached") return `reached ${String(d["limit"])} ${String(d["action"])} ${String(d["used"])}`;
    if (e.type === "turn.started") return `turn ${String(d["turn"])} ${String(d["reason"])}`;
    if (e.type === "turn.completed") return `turn ${String(d["turn"])} ${String(d["stop_reason"])}`;
    if (e.type === "permission.resolved") return `permission ${String(d["decision"])}`;
    if (e.type === "tool.started") return `tool ${String(d["title"])}`;
    if (e.type === "log") return `log ${String(d["level"])} ${String(d["code"])}`;
    return e.type;
  });
}

test("a token budget with an agent that reports each model call: the turn is cancelled at the call that crosses it, not at the turn's end", async () => {
  // One model call of 6,050 tokens, then a long wait and a write the budget must never reach.
  const turns = { turns: [[{ usage: { input_tokens: 6_000, output_tokens: 50 } }, { sleep: 60_000 }, { write: { path: "late.txt", content: "late\n" } }]] };
  const run = await runScripted("tokens-per-call", turns, { args: ["--max-tokens", "500"] });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(sequence(run.events, ["log", "agent.started", "limit.warning", "limit.reached", "turn.completed", "tool.started"]), [
    "log warn token_budget_small",
    "agent.started",
    "warning 0.6",
    "warning 0.8",
    "reached tokens cancel 6050",
    "turn 1 cancelled",
    "log info no_changes",
  ]);
  const warning = ofType(run.events, "log").find((log) => log["code"] === "token_budget_small");
  assert.deepEqual(warning?.["level"], "warn");
  assert.match(String(warning?.["message"]), /a budget of 500 tokens is small against one turn .* with fake it can be overshot by about one model call, since the counts arrive after each call/);
  const end = finalEvent(run.events);
  assert.deepEqual([end?.type, end?.data["status"], end?.data["stopped_by"]], ["run.completed", "stopped", "tokens"]);
});

test("a token budget with an agent that reports tokens per turn holds only when the turn ends: overshot by the whole turn", async () => {
  const turns = { turns: [[{ usage: { input_tokens: 6_000, output_tokens: 50 } }, { say: "still working" }, { usage: { input_tokens: 3_000, output_tokens: 20 } }]] };
  const run = await runScripted("tokens-per-turn", turns, { args: ["--max-tokens", "500"], config: '[agents.fake]\ntoken_reports = "turn"\n' });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(sequence(run.events, ["limit.warning", "limit.reached", "turn.completed"]), ["turn 1 end_turn", "warning 0.6", "warning 0.8", "reached tokens stop 9070"]);
  assert.match(String(ofType(run.events, "log").find((log) => log["code"] === "token_budget_small")?.["message"]), /by up to one whole turn \(every model call in it\), since the counts arrive when a turn ends/);
  assert.equal(finalEvent(run.events)?.data["stopped_by"], "tokens");
});

test("a token budget of 20,000 or more gets no warning; the live view prints a small one's before the agent starts", async () => {
  const large = await runScripted("tokens-large", { turns: [[{ write: { path: "a.txt", content: "a\n" } }]] }, { args: ["--max-tokens", "20000"] });
  assert.equal(large.code, 0, large.stderr);
  assert.deepEqual(ofType(large.events, "log").filter((log) => log["level"] === "warn"), []);
  const repo = await makeRepo("cli-tokens-live-");
  const script = await writeScript(repo, "s.json", [{ write: { path: "a.txt", content: "a\n" } }]);
  const live = await runBaton(repo, ["run", "Go", "--script", script, "--max-tokens", "500"]);
  assert.equal(live.code, 0, live.stderr);
  const lines = live.stdout.split("\n");
  const warned = lines.findIndex((line) => line.startsWith("  ⚠ a budget of 500 tokens is small against one turn"));
  assert.ok(warned > 0, live.stdout);
  assert.ok(warned < lines.findIndex((line) => line.includes("⚙ edit")), "before the agent's first tool call");
});

test("around a tool-call cap the log reads in order: the warning, the hand-back, the next call refused with its turn, then the hand-back prompt", async () => {
  const calls = Array.from({ length: 4 }, (_, i) => ({ run: `echo step ${i}` }));
  const run = await runScripted("tool-calls-order", { turns: [[{ write: { path: "x.txt", content: "x\n" } }, ...calls], handBack] }, { args: ["--max-tool-calls", "4"] });
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(sequence(run.events, ["limit.warning", "limit.reached", "handback.requested", "turn.started", "turn.completed", "permission.resolved", "tool.started"]), [
    "turn 1 task",
    "tool Write x.txt",
    "permission allow_once",
    "tool Run echo step 0",
    "permission allow_once",
    "tool Run echo step 1",
    "permission allow_once",
    // The third call passes 60% and is one before the cap: the warning, then the hand-back at once
    // (no notice in between: the hand-back prompt says more).
    "warning 0.6",
    "reached tool_calls handback 3",
    // The call the agent was making meanwhile belongs to the cancelled turn: not granted.
    "tool Run echo step 2",
    "permission cancelled",
    "turn 1 cancelled",
    "handback.requested",
    "turn 2 handback",
    "turn 2 end_turn",
  ]);
  assert.equal(ofType(run.events, "permission.resolved").at(-1)?.["rule"], "default:turn-cancelled");
  assert.equal(finalEvent(run.events)?.data["stopped_by"], "tool_calls");
});

test("baton run --help says how far a token budget can overshoot with each built-in agent, as their entries say, and when it warns", async () => {
  const help = await runBaton(await testTempDir("cli-help-tokens-"), ["run", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const text = help.stdout.replaceAll(/\s+/g, " ");
  const byReports = (reports: string) => Object.entries(BUILTIN_AGENTS).filter(([, e]) => ("reports_tokens" in e ? e.reports_tokens : true) && ("token_reports" in e ? e.token_reports : "turn") === reports).map(([name]) => name);
  assert.deepEqual(byReports("turn"), ["claude", "opencode"]);
  assert.deepEqual(byReports("call"), ["codex"]);
  assert.match(text, /with claude and opencode, whose counts arrive when a turn ends, by up to one whole turn \(every model call in it\); with codex, whose counts arrive after each model call, by about one call; gemini reports none/);
  assert.ok(text.includes(`A budget under ${SMALL_TOKEN_BUDGET.toLocaleString("en")} tokens is small against one turn`), text);
  assert.match(text, /--max-tokens <n> +stop the run at this many input \+ output tokens \(exit 3\); it can be overshot by one turn, or one model call/);
});
