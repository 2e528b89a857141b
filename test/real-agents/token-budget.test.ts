// A token budget with real agents: Baton checks it whenever an agent's token counts arrive, and
// each built-in entry's `token_reports` says when that is. Codex reports each model call, so a
// budget smaller than one call stops its turn mid-way; the others report when a turn ends, so
// the turn runs to its end first. Both overshoot, as `baton agents` and the README say.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { BUILTIN_AGENTS } from "../../packages/engine/src/agents/builtin-agents.ts";
import { eventsOfType } from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import { diagnostics, disposable, project, runAgent, SCENARIO_TIMEOUT_MS } from "./baton-project.ts";

/** Less than any agent's first model call (its system prompt and tools alone are more). */
const BUDGET = 500;

describe("a token budget through real agents and the model twin", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const entry = BUILTIN_AGENTS[agent] as { reports_tokens?: boolean; token_reports?: "turn" | "call" };
    if (entry.reports_tokens === false) continue;
    const reports = entry.token_reports ?? "turn";
    const plan = agentTestPlan(agent);
    const name =
      reports === "call"
        ? `${agent}: a budget smaller than one model call stops the turn at that call (tokens per call)`
        : `${agent}: a budget smaller than one turn holds when the turn ends (tokens per turn)`;
    test(name, { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 }, async () => {
      if (plan.missing !== undefined) assert.fail(plan.missing);
      // Without the proxy: the budget acts on what the agent reports (the proxy's figures: below).
      await using p = disposable(await project(agent, { name: "write", path: "notes/budget.txt", content: "within budget?\n", reply: "Done." }, { proxy: false }));
      const { result, events } = await runAgent(p.p, "Create notes/budget.txt.", ["--max-tokens", String(BUDGET)]);
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 3, why());
      const end = events.at(-1);
      assert.deepEqual([end?.type, (end?.data as { stopped_by?: string }).stopped_by], ["run.completed", "tokens"], why());
      const warned = eventsOfType<{ code?: string }>(events, "log").find((e) => e.data.code === "token_budget_small");
      assert.ok(warned !== undefined && (warned.seq ?? 0) < seqOf(events, "agent.started"), `warned before the agent started\n${why()}`);
      const reached = eventsOfType<{ limit: string; action: string; used: number }>(events, "limit.reached")[0];
      assert.equal(reached?.data.limit, "tokens", why());
      const firstTurnEnd = eventsOfType<{ turn: number }>(events, "turn.completed").find((e) => e.data.turn === 1);
      if (reports === "call") {
        // Mid-turn: at the first call's report, before the turn's end, which it cancels.
        assert.equal(reached?.data.action, "cancel", why());
        assert.ok((reached?.seq ?? Infinity) < (firstTurnEnd?.seq ?? -Infinity), `limit.reached came before turn 1 ended\n${why()}`);
      } else {
        assert.equal(reached?.data.action, "stop", why());
        assert.ok((reached?.seq ?? -Infinity) > (firstTurnEnd?.seq ?? Infinity), `limit.reached came after turn 1 ended\n${why()}`);
      }
    });
  }
});

describe("a token budget through Baton's inference proxy: every agent stopped at its first model call", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const plan = agentTestPlan(agent);
    test(`${agent}: the proxy's count of the first call passes the budget: the turn is cancelled mid-way, the next request refused before the twin`, { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 }, async () => {
      if (plan.missing !== undefined) assert.fail(plan.missing);
      await using p = disposable(await project(agent, { name: "write", path: "notes/budget.txt", content: "within budget?\n", reply: "Done." }));
      const { result, events } = await runAgent(p.p, "Create notes/budget.txt.", ["--max-tokens", String(BUDGET)]);
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 3, why());
      assert.equal((events.at(-1)?.data as { stopped_by?: string }).stopped_by, "tokens", why());
      const reached = eventsOfType<{ limit: string; action: string }>(events, "limit.reached")[0];
      assert.deepEqual([reached?.data.limit, reached?.data.action], ["tokens", "cancel"], why());
      // Stopped by the proxy's count: after a call's usage passed the budget, or at a call refused
      // because the calls in flight hold the rest of it (Claude Code sends two at once).
      const counted = [...eventsOfType(events, "model.request.completed"), ...eventsOfType(events, "model.request.refused")].map((e) => e.seq ?? Infinity);
      assert.ok(counted.length > 0 && (reached?.seq ?? -1) > Math.min(...counted), `stopped at the proxy's count of a model call\n${why()}`);
      const firstTurnEnd = eventsOfType<{ turn: number }>(events, "turn.completed").find((e) => e.data.turn === 1);
      assert.ok((reached?.seq ?? Infinity) < (firstTurnEnd?.seq ?? Infinity), `mid-turn, before turn 1 ended\n${why()}`);
      // Baton counted every call the twin answered; what came after the stop was refused at the proxy.
      assert.equal(eventsOfType(events, "model.request.completed").length, p.p.twin.requests.filter((r) => r.api !== null).length, why());
    });
  }
});

function seqOf(events: readonly Envelope[], type: string): number {
  return events.find((e) => e.type === type)?.seq ?? Number.POSITIVE_INFINITY;
}
