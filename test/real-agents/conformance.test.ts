// Real-agent conformance: the same scenarios for every installed real agent, each driven the way
// a user drives it (`baton run --agent NAME` in a git repository) against the model twin, with a
// throwaway home and the agent found through BATON_AGENT_PATH. Agents that are not installed are
// skipped with the command that installs them; CI installs them first (`npm run agents:install`).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test as nodeTest } from "node:test";
import { eventsOfType, readEvents, startBaton, waitFor, waitForEvent, waitForOnlyRun } from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentTestPlan, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { DEFAULT_MODELS } from "./agent-profiles.ts";
import { agentProcesses, diagnostics, disposable, project, runAgent, SCENARIO_TIMEOUT_MS, workspacePath } from "./baton-project.ts";

/**
 * The refusal each agent gives up on at once and answers with a JSON-RPC error on its prompt.
 * Claude Code retries a 401 with backoff for minutes; Codex ends its turn normally after a 403,
 * with the error only in its message text (sorting such words into failures is the business of
 * provider-error classification, not of this scenario).
 */
const PROVIDER_FAILURE: Record<AgentName, 401 | 403> = { claude: 403, codex: 401, gemini: 401, opencode: 401 };

/**
 * The class Baton sorts each refusal into (provider-faults.test.ts has the other classes).
 * OpenCode passes on only the provider's words, and the twin's say nothing of a key: `other`,
 * recorded without a class.
 */
const REFUSAL_CLASS: Record<AgentName, string | undefined> = { claude: "unauthorized", codex: "unauthorized", gemini: "unauthorized", opencode: undefined };

describe("real-agent conformance through baton run and the model twin", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const plan = agentTestPlan(agent);
    const options = { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 };
    // A required agent that is missing fails each of its tests instead of skipping them.
    const test = (name: string, opts: typeof options, fn: () => Promise<void>): void => {
      nodeTest(name, opts, async () => {
        if (plan.missing !== undefined) assert.fail(plan.missing);
        await fn();
      });
    };

    test(`${agent}: writes a file; the change is committed and the model recorded`, options, async () => {
      const content = `written by ${agent} through baton\n`;
      await using p = disposable(await project(agent, { name: "write", path: "notes/hello.txt", content, reply: "Done." }));
      const { result, events } = await runAgent(p.p, "Create notes/hello.txt with a greeting.");
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 0, why());
      assert.equal(events.at(-1)?.type, "run.completed", why());
      const started = eventsOfType<{ model?: string; agent_version?: string }>(events, "agent.started")[0];
      assert.ok(started?.data.model?.includes(DEFAULT_MODELS[agent]), `agent.started records the model asked for\n${why()}`);
      assert.ok(eventsOfType(events, "tool.completed").length >= 1, `a tool call completed\n${why()}`);
      assert.equal(await readFile(join(workspacePath(events), "notes", "hello.txt"), "utf8"), content, why());
      const committed = eventsOfType<{ files: Array<{ path: string }> }>(events, "git.committed")[0];
      if (eventsOfType<{ kind: string }>(events, "workspace.ready")[0]?.data.kind === "worktree") {
        assert.ok(committed?.data.files.some((f) => f.path.endsWith("notes/hello.txt")), `the commit holds the file\n${why()}`);
      }
    });

    test(`${agent}: runs a command`, options, async () => {
      await using p = disposable(await project(agent, { name: "run", command: "echo conformance > ran.txt", reply: "Ran it." }));
      const { result, events } = await runAgent(p.p, "Run the command that writes ran.txt.");
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 0, why());
      const execute = eventsOfType<{ kind: string }>(events, "tool.started").filter((e) => e.data.kind === "execute");
      assert.ok(execute.length >= 1, `an execute tool call was recorded\n${why()}`);
      assert.equal((await readFile(join(workspacePath(events), "ran.txt"), "utf8")).trim(), "conformance", why());
    });

    test(`${agent}: a permission request is answered by the policy`, options, async () => {
      const rule = `[[permissions.rules]]\nname = "conformance-no-shell"\naction = "deny"\nkind = "execute"\npattern = "*"\n`;
      // escalate: Codex runs sandboxed commands without asking; an escalated one needs permission.
      await using p = disposable(await project(agent, { name: "run", command: "echo denied > denied.txt", escalate: true, reply: "Could not run it." }, { config: rule }));
      // The denied command leaves nothing: no change is required of this run.
      const { result, events } = await runAgent(p.p, "Run the command that writes denied.txt.", ["--require-output", "none"]);
      const why = () => diagnostics(p.p, events, result.stderr);
      const resolved = eventsOfType<{ rule?: string; outcome?: string }>(events, "permission.resolved");
      assert.ok(resolved.some((e) => e.data.rule === "conformance-no-shell"), `the deny rule decided a permission request\n${why()}`);
      assert.equal(existsSync(join(workspacePath(events), "denied.txt")), false, `the denied command did not run\n${why()}`);
    });

    test(`${agent}: cancel mid-turn ends the run cancelled with no agent process left`, options, async () => {
      await using p = disposable(await project(agent, { name: "text", reply: "a long reply ".repeat(200), fault: { kind: "slow", delayMs: 1500 } }));
      const child = startBaton(p.p.repo, ["run", "Say something long.", "--agent", agent, "--json"], { env: p.p.env });
      try {
        const runId = await waitForOnlyRun(p.p.repo);
        await waitForEvent(p.p.repo, runId, "turn.started", (e) => e.type === "turn.started");
        await waitFor("the twin to start streaming the main reply", () => p.p.twin.requests.some((r) => r.role === "main"), SCENARIO_TIMEOUT_MS);
        child.child.kill("SIGINT");
        const result = await child.done;
        const events = await readEvents(p.p.repo, runId);
        const why = () => diagnostics(p.p, events, result.stderr);
        assert.equal(result.code, 130, why());
        assert.equal(events.at(-1)?.type, "run.cancelled", why());
        await waitFor(`no ${agent} process left`, () => agentProcesses(agent, p.p.home).length === 0, 15_000).catch(() => {
          assert.deepEqual(agentProcesses(agent, p.p.home), [], why());
        });
      } finally {
        child.kill();
      }
    });

    test(`${agent}: a provider failure fails the run with the agent's error recorded`, options, async () => {
      const status = PROVIDER_FAILURE[agent];
      await using p = disposable(await project(agent, { name: "text", reply: "never sent", fault: { kind: "status", status, on: "any" } }));
      const { result, events } = await runAgent(p.p, "Say hello.");
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 1, why());
      const failed = eventsOfType<{ error: { code: string; message: string } }>(events, "run.failed")[0];
      assert.ok(failed, `the run failed\n${why()}`);
      assert.ok(failed.data.error.message.length > 0, why());
      assert.equal((failed.data as { provider_error?: string }).provider_error, REFUSAL_CLASS[agent], `the refusal's class\n${why()}`);
      assert.equal(eventsOfType(events, "retry.scheduled").length, 0, `a refusal is never resent\n${why()}`);
      assert.ok(p.p.twin.requests.some((r) => r.status === status), `the agent reached the twin and got ${status}\n${why()}`);
    });
  }
});
