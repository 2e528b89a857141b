import assert from "node:assert/strict";
import { test } from "node:test";
import { formatAgent, formatSummary, parseStartupArgs, type AgentFigures } from "./startup-report.ts";

const KNOWN = ["gemini", "codex", "claude", "opencode"];

test("runs default to 5, or 2 with --quick; --runs beats BATON_BENCH_RUNS; every agent unless --agents", () => {
  assert.deepEqual(parseStartupArgs([], {}, KNOWN), { runs: 5, agents: KNOWN });
  assert.deepEqual(parseStartupArgs(["--quick"], {}, KNOWN).runs, 2);
  assert.deepEqual(parseStartupArgs([], { BATON_BENCH_RUNS: "3" }, KNOWN).runs, 3);
  assert.deepEqual(parseStartupArgs(["--runs", "7"], { BATON_BENCH_RUNS: "3" }, KNOWN).runs, 7);
  assert.deepEqual(parseStartupArgs(["--agents", "claude, codex"], {}, KNOWN).agents, ["claude", "codex"]);
  assert.deepEqual(parseStartupArgs([], { BATON_BENCH_AGENTS: "gemini" }, KNOWN).agents, ["gemini"]);
});

test("flags of the other benchmarks, passed on by run-all, are ignored", () => {
  assert.deepEqual(parseStartupArgs(["--events", "1000", "--quick"], {}, KNOWN), { runs: 2, agents: KNOWN });
});

test("a bad run count, a missing value or an unknown agent is refused, naming the flag", () => {
  assert.throws(() => parseStartupArgs(["--runs", "0"], {}, KNOWN), /--runs .* positive integer, not 0/);
  assert.throws(() => parseStartupArgs(["--runs", "two"], {}, KNOWN), /--runs/);
  assert.throws(() => parseStartupArgs(["--runs", "--quick"], {}, KNOWN), /--runs needs a value/);
  assert.throws(() => parseStartupArgs(["--agents", "claude,cursor"], {}, KNOWN), /--agents .* gemini, codex, claude, opencode; not "claude,cursor"/);
});

const FIGURES: AgentFigures = {
  agent: "codex",
  version: "2.6.0",
  bare: [
    { readyMs: 600, clientStartMs: 100, turnMs: 300, stopMs: 2000, totalMs: 3000 },
    { readyMs: 800, clientStartMs: 100, turnMs: 500, stopMs: 2000, totalMs: 4000 },
    { readyMs: 700, clientStartMs: 100, turnMs: 400, stopMs: 2000, totalMs: 3500 },
  ],
  baton: [
    { readyMs: 1600, turnMs: 400, totalMs: 4500 },
    { readyMs: 1200, turnMs: 400, totalMs: 4000 },
    { readyMs: 1400, turnMs: 600, totalMs: 3500 },
  ],
};

test("an agent's lines give medians with their range, and Baton's ratios to the bare client, of medians and round by round", () => {
  assert.deepEqual(formatAgent(FIGURES), [
    "codex 2.6.0: 3 bare / 3 baton runs; median s (min–max)",
    "  bare ACP client   ready 0.70 s (0.60–0.80)  turn 0.40 s (0.30–0.50)  stop 2.00 s (2.00–2.00)  total 3.50 s (3.00–4.00)",
    "  baton run --json  ready 1.40 s (1.20–1.60)  turn 0.40 s (0.40–0.60)  total 4.00 s (3.50–4.50)",
    // ready: Baton counts from its own spawn, so the bare client's start (100 ms) is added to its ready.
    "  baton / bare: total 1.14× of medians, 1.00× median of per-run ratios (1.50, 1.00, 1.00); ready 1.75×; turn 1.00×",
  ]);
});

test("an agent that failed before any baton run shows only what was measured", () => {
  const lines = formatAgent({ ...FIGURES, baton: [] });
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? "", /3 bare \/ 0 baton runs/);
});

test("the summary has one aligned row per agent, with a dash for what was not measured", () => {
  assert.deepEqual(formatSummary([FIGURES, { ...FIGURES, agent: "gemini", baton: [] }]), [
    "  agent   bare ready  bare turn  bare total  baton ready  baton turn  baton total  ratio of medians  per-run ratio",
    "  codex   0.70 s      0.40 s     3.50 s      1.40 s       0.40 s      4.00 s       1.14×             1.00×",
    "  gemini  0.70 s      0.40 s     3.50 s      -            -           -            n/a               n/a",
  ]);
});
