// Real-agent conformance: the same scenarios for every installed real agent, each driven the way
// a user drives it (`baton run --agent NAME` in a git repository) against the model twin, with a
// throwaway home and the agent found through BATON_AGENT_PATH. Agents that are not installed are
// skipped with the command that installs them; CI installs them first (`npm run agents:install`).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, test as nodeTest } from "node:test";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { ModelTwin, type ScenarioInput } from "@baton/testkit/model-twin";
import {
  cliEnv,
  eventsOfType,
  listProcesses,
  makeRepo,
  onlyRunId,
  readEvents,
  startBaton,
  waitFor,
  waitForEvent,
  waitForOnlyRun,
} from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentBinPath, agentDir, agentTestPlan, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { agentLaunch, DEFAULT_MODELS } from "./agent-profiles.ts";

/** A real agent's turn on a loaded 2-core machine: start-up, auxiliary calls, the tool call, the follow-up. */
const SCENARIO_TIMEOUT_MS = 150_000;

/** What each agent needs in `.baton/config.toml` to reach the twin: variables only the test knows. */
const AGENT_CONFIG: Partial<Record<AgentName, string>> = {
  // Codex reads its key from the variable its provider's `env_key` names.
  codex: `[agents.codex]\npass_env = ["TWIN_API_KEY"]\n`,
};

/** `--model` as each agent names the twin's model: OpenCode's ids are provider/model. */
const RUN_MODELS: Record<AgentName, string> = { ...DEFAULT_MODELS, opencode: `twin/${DEFAULT_MODELS.opencode}` };

/**
 * The refusal each agent gives up on at once and answers with a JSON-RPC error on its prompt.
 * Claude Code retries a 401 with backoff for minutes; Codex ends its turn normally after a 403,
 * with the error only in its message text (sorting such words into failures is the business of
 * provider-error classification, not of this scenario).
 */
const PROVIDER_FAILURE: Record<AgentName, 401 | 403> = { claude: 403, codex: 401, gemini: 401, opencode: 401 };

type Project = { repo: string; env: Record<string, string>; twin: ModelTwin; agent: AgentName };

/** A repository with `.baton/`, a throwaway home configured for `agent`, and a twin playing `scenario`. */
async function project(agent: AgentName, scenario: ScenarioInput, config = ""): Promise<Project> {
  const repo = await makeRepo(`conformance-${agent}-`);
  const home = await testTempDir(`conformance-home-${agent}-`);
  const twin = await ModelTwin.start({ scenario, logFile: join(home, "twin-requests.ndjson") });
  const launch = await agentLaunch(agent, { twinUrl: twin.url, home, model: DEFAULT_MODELS[agent] });
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, `${await readFile(configPath, "utf8")}\n${config}\n${AGENT_CONFIG[agent] ?? ""}`);
  const env = cliEnv({ ...launch.env, HOME: home, BATON_AGENT_PATH: dirname(agentBinPath(agent)) });
  return { repo, env, twin, agent };
}

async function runAgent(p: Project, task: string, extra: string[] = []) {
  const child = startBaton(p.repo, ["run", task, "--agent", p.agent, "--model", RUN_MODELS[p.agent], "--json", ...extra], { env: p.env });
  const result = await child.done;
  const runId = await onlyRunId(p.repo);
  return { result, runId, events: await readEvents(p.repo, runId) };
}

/** Everything a failed assertion needs to be understood. */
function diagnostics(p: Project, events: readonly Envelope[], stderr: string): string {
  const twin = p.twin.requests.map((r) => `${r.seq} ${r.method} ${r.path} ${r.role} ${r.status} ${JSON.stringify(r.reply ?? null).slice(0, 200)}`);
  const log = events.map((e) => `${e.seq} ${e.type} ${JSON.stringify(e.data).slice(0, 300)}`);
  return `events:\n${log.join("\n")}\ntwin:\n${twin.join("\n")}\nstderr:\n${stderr.slice(-3000)}`;
}

function workspacePath(events: readonly Envelope[]): string {
  const ready = eventsOfType<{ path: string }>(events, "workspace.ready")[0];
  assert.ok(ready, "the run has a workspace.ready event");
  return ready.data.path;
}

/** Live processes started from the agent's install folder (the agent and anything it spawned). */
function agentProcesses(agent: AgentName) {
  const dir = agentDir(agent);
  return listProcesses().filter((p) => p.state !== "Z" && p.state !== "X" && p.cmdline.includes(dir));
}

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
      await using p = disposable(await project(agent, { name: "run", command: "echo denied > denied.txt", escalate: true, reply: "Could not run it." }, rule));
      const { result, events } = await runAgent(p.p, "Run the command that writes denied.txt.");
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
        await waitFor(`no ${agent} process left`, () => agentProcesses(agent).length === 0, 15_000).catch(() => {
          assert.deepEqual(agentProcesses(agent), [], why());
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
      assert.ok(p.p.twin.requests.some((r) => r.status === status), `the agent reached the twin and got ${status}\n${why()}`);
    });
  }
});

/** Lets `await using` close the twin at the end of a test. */
function disposable(p: Project) {
  return { p, [Symbol.asyncDispose]: () => p.twin.close() };
}
