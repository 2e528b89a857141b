// Provider faults with real agents: the model twin injects a fault the way a provider does, the
// real agent reacts as it does (its own retries first), and `baton run` must sort the failure,
// wait and resend, or hand back, as the README's "Limits and reliability" says. Which agent shows
// each fault best, and with which settings its own retries stay short, is measured in this
// folder's README ("Provider faults").
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test as nodeTest } from "node:test";
import type { Envelope } from "@baton/protocol";
import { eventsOfType } from "../../packages/cli/src/e2e/cli-harness.ts";
import { agentTestPlan, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { diagnostics, disposable, project, runAgent, SCENARIO_TIMEOUT_MS, workspacePath } from "./baton-project.ts";

/** Baton's own waits, short: the agents' own retries are what take time here. */
const FAST_RETRY = `[retry]\nrate_limited = ["1s", "1s", "1s"]\noverloaded = ["1s", "1s", "1s", "1s", "1s", "1s"]\njitter = 0\n`;

const CONTENT = "kept through the fault\n";

function test(agent: AgentName, name: string, fn: () => Promise<void>): void {
  const plan = agentTestPlan(agent);
  nodeTest(`${agent}: ${name}`, { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 60_000 }, async () => {
    if (plan.missing !== undefined) assert.fail(plan.missing);
    await fn();
  });
}

function data(events: readonly Envelope[], type: string): Record<string, unknown>[] {
  return eventsOfType<Record<string, unknown>>(events, type).map((e) => e.data);
}

function reasons(events: readonly Envelope[]): unknown[] {
  return data(events, "turn.started").map((d) => d["reason"]);
}

describe("provider faults through real agents and the model twin", { concurrency: false }, () => {
  test("opencode", "a 429 with retry-after past the agent's own retries: rate_limited, the provider's wait, resent, succeeded", async () => {
    const fault = { kind: "status", status: 429, retryAfter: 2, message: "Rate limit reached for requests. Please try again in 2s.", times: 6, on: "main" } as const;
    await using p = disposable(await project("opencode", { name: "write", path: "notes/limited.txt", content: CONTENT, reply: "Done.", fault }, { config: FAST_RETRY }));
    const { result, events } = await runAgent(p.p, "Create notes/limited.txt.");
    const why = () => diagnostics(p.p, events, result.stderr);
    assert.equal(result.code, 0, why());
    const errors = data(events, "provider.error");
    assert.ok(errors.length >= 1 && errors.every((e) => e["class"] === "rate_limited"), `rate_limited\n${why()}`);
    assert.equal(errors[0]?.["retry_after_ms"], 2_000, why());
    const retries = data(events, "retry.scheduled");
    assert.equal(retries[0]?.["delay_ms"], 2_000, `the provider's wait, not the schedule's\n${why()}`);
    assert.deepEqual(reasons(events).slice(0, 2), ["task", "resend"], why());
    assert.equal(await readFile(join(workspacePath(events), "notes", "limited.txt"), "utf8"), CONTENT, why());
  });

  test("claude", "a 529 burst longer than the agent's own retries: overloaded, resent by Baton until it clears, succeeded", async () => {
    const fault = { kind: "status", status: 529, times: 3, on: "main" } as const;
    const env = { CLAUDE_CODE_MAX_RETRIES: "1" };
    await using p = disposable(await project("claude", { name: "write", path: "notes/overloaded.txt", content: CONTENT, reply: "Done.", fault }, { config: FAST_RETRY, env }));
    const { result, events } = await runAgent(p.p, "Create notes/overloaded.txt.");
    const why = () => diagnostics(p.p, events, result.stderr);
    assert.equal(result.code, 0, why());
    const errors = data(events, "provider.error");
    assert.ok(errors.length >= 1 && errors.every((e) => e["class"] === "overloaded" && e["status"] === 529), `overloaded (529)\n${why()}`);
    const retries = data(events, "retry.scheduled");
    assert.deepEqual(retries.map((r) => r["attempt"]), errors.map((_, i) => i + 1), `one resend per failed turn\n${why()}`);
    assert.equal(reasons(events).filter((r) => r === "resend").length, errors.length, why());
    assert.ok(p.p.twin.requests.filter((r) => r.status === 529).length === 3, why());
    assert.equal(await readFile(join(workspacePath(events), "notes", "overloaded.txt"), "utf8"), CONTENT, why());
  });

  test("gemini", "a 401: unauthorized, never resent, the hand-back asked at once; the run fails with the class", async () => {
    const fault = { kind: "status", status: 401, on: "any" } as const;
    await using p = disposable(await project("gemini", { name: "text", reply: "never sent", fault }, { config: FAST_RETRY }));
    const { result, events } = await runAgent(p.p, "Say hello.");
    const why = () => diagnostics(p.p, events, result.stderr);
    assert.equal(result.code, 1, why());
    assert.equal(data(events, "provider.error")[0]?.["class"], "unauthorized", why());
    assert.equal(data(events, "provider.error")[0]?.["status"], 401, why());
    assert.equal(data(events, "retry.scheduled").length, 0, `never resent\n${why()}`);
    assert.deepEqual(data(events, "handback.requested"), [{ reason: "provider", class: "unauthorized" }], why());
    assert.deepEqual(reasons(events), ["task", "handback"], why());
    const failed = data(events, "run.failed")[0];
    assert.equal(failed?.["provider_error"], "unauthorized", why());
  });

  test("gemini", "a stalled stream: Baton's stall timeout cancels the turn and sends it again once; the run succeeds", async () => {
    const fault = { kind: "stall", afterChunks: 1, times: 1, on: "main" } as const;
    await using p = disposable(await project("gemini", { name: "write", path: "notes/stalled.txt", content: CONTENT, reply: "Done.", fault }, { agentFields: "stall_timeout = 15" }));
    const { result, events } = await runAgent(p.p, "Create notes/stalled.txt.");
    const why = () => diagnostics(p.p, events, result.stderr);
    assert.equal(result.code, 0, why());
    const stalls = data(events, "stall.detected");
    assert.equal(stalls.length, 1, why());
    assert.equal(stalls[0]?.["action"], "resend", why());
    assert.ok((stalls[0]?.["idle_ms"] as number) >= 15_000, why());
    assert.deepEqual(reasons(events), ["task", "resend"], why());
    assert.equal(await readFile(join(workspacePath(events), "notes", "stalled.txt"), "utf8"), CONTENT, why());
  });
});
