// A git repository with `.baton/`, a throwaway home configured for one real agent, and the model
// twin it talks to: what the real-agent suites (conformance, provider faults) run `baton run` in.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { ModelTwin, type ScenarioInput } from "@baton/testkit/model-twin";
import { cliEnv, eventsOfType, listProcesses, makeRepo, onlyRunId, readEvents, startBaton } from "../../packages/cli/src/e2e/cli-harness.ts";
import { agentBinPath, agentDir, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { agentLaunch, DEFAULT_MODELS } from "./agent-profiles.ts";

/** A real agent's turn on a loaded 2-core machine: start-up, auxiliary calls, the tool call, the follow-up. */
export const SCENARIO_TIMEOUT_MS = 150_000;

/** What each agent's entry needs in `.baton/config.toml` to reach the twin: variables only the test knows. */
const AGENT_FIELDS: Partial<Record<AgentName, string>> = {
  // Codex reads its key from the variable its provider's `env_key` names.
  codex: `pass_env = ["TWIN_API_KEY"]`,
};

/** `--model` as each agent names the twin's model: OpenCode's ids are provider/model. */
export const RUN_MODELS: Record<AgentName, string> = { ...DEFAULT_MODELS, opencode: `twin/${DEFAULT_MODELS.opencode}` };

export type Project = { repo: string; env: Record<string, string>; twin: ModelTwin; agent: AgentName; home: string };

/**
 * The upstream key Baton's inference proxy sends the twin: only Baton reads it (from this
 * variable), the twin answers nothing else (any other key gets a 401), and no agent may hold it.
 */
export const UPSTREAM_KEY_ENV = "TWIN_UPSTREAM_KEY";
export const UPSTREAM_KEY = "sk-twin-upstream-real-key-7f3a9c2e51b8";

/** `[proxy]`: the twin as every provider's upstream, its key from {@link UPSTREAM_KEY_ENV}. */
export function proxyConfig(twinUrl: string): string {
  return ["anthropic", "openai", "gemini"].map((provider) => `[proxy.${provider}]\nbase_url = "${twinUrl}"\nkey_env = "${UPSTREAM_KEY_ENV}"\n`).join("\n");
}

/**
 * A repository with `.baton/`, a throwaway home configured for `agent`, and a twin playing
 * `scenario`. Its config.toml is `config` (top-level tables) and the agent's `[agents.NAME]`
 * table: the fields it needs to reach the twin, then `agentFields`. `env` adds to what baton
 * (and, through the entry's pass_env, the agent) is started with.
 */
export async function project(agent: AgentName, scenario: ScenarioInput, options: { config?: string; agentFields?: string; env?: Record<string, string>; proxy?: boolean; sandbox?: boolean } = {}): Promise<Project> {
  const repo = await makeRepo(`real-${agent}-`);
  const home = await testTempDir(`real-home-${agent}-`);
  // Through Baton's inference proxy (the default), the twin takes only the upstream key.
  const proxied = options.proxy !== false;
  const twin = await ModelTwin.start({ scenario, logFile: join(home, "twin-requests.ndjson"), ...(proxied ? { key: UPSTREAM_KEY } : {}) });
  const launch = await agentLaunch(agent, { twinUrl: twin.url, home, model: DEFAULT_MODELS[agent] });
  const configPath = join(repo, ".baton", "config.toml");
  const fields = [AGENT_FIELDS[agent], options.agentFields].filter((f) => f !== undefined && f !== "").join("\n");
  const proxy = proxied ? proxyConfig(twin.url) : "[proxy]\nenabled = false\n";
  // In bubblewrap's sandbox, the throwaway home (the agent's profile) is its private home.
  const sandbox = options.sandbox === true ? `[sandbox]\nkind = "bwrap"\nhome = "${home}"\n` : "";
  await writeFile(configPath, `${options.config ?? ""}\n${sandbox}${proxy}\n${fields === "" ? "" : `[agents.${agent}]\n${fields}\n`}`);
  const env = cliEnv({ ...launch.env, ...options.env, HOME: home, BATON_AGENT_PATH: dirname(agentBinPath(agent)), ...(proxied ? { [UPSTREAM_KEY_ENV]: UPSTREAM_KEY } : {}) });
  return { repo, env, twin, agent, home };
}

export async function runAgent(p: Project, task: string, extra: string[] = []) {
  const child = startBaton(p.repo, ["run", task, "--agent", p.agent, "--model", RUN_MODELS[p.agent], "--json", ...extra], { env: p.env });
  const result = await child.done;
  const runId = await onlyRunId(p.repo);
  return { result, runId, events: await readEvents(p.repo, runId) };
}

/** Everything a failed assertion needs to be understood. */
export function diagnostics(p: Project, events: readonly Envelope[], stderr: string): string {
  const twin = p.twin.requests.map((r) => `${r.seq} ${r.method} ${r.path} ${r.role} ${r.status} ${JSON.stringify(r.reply ?? null).slice(0, 200)}`);
  const log = events.map((e) => `${e.seq} ${e.type} ${JSON.stringify(e.data).slice(0, 300)}`);
  return `events:\n${log.join("\n")}\ntwin:\n${twin.join("\n")}\nstderr:\n${stderr.slice(-3000)}`;
}

export function workspacePath(events: readonly Envelope[]): string {
  const ready = eventsOfType<{ path: string }>(events, "workspace.ready")[0];
  assert.ok(ready, "the run has a workspace.ready event");
  return ready.data.path;
}

/** Live processes started from the agent's install folder (the agent and anything it spawned). */
/**
 * The live processes of `agent` started for the project whose home is `home`: its environment
 * names that home, so the agents of other tests running at the same time are not counted.
 */
export function agentProcesses(agent: AgentName, home: string) {
  const dir = agentDir(agent);
  return listProcesses().filter((p) => p.state !== "Z" && p.state !== "X" && p.cmdline.includes(dir) && hasHome(p.pid, home));
}

function hasHome(pid: number, home: string): boolean {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`.includes(`\0HOME=${home}\0`);
  } catch {
    return false; // It exited, or is not ours to read.
  }
}

/** Lets `await using` close the twin at the end of a test. */
export function disposable(p: Project) {
  return { p, [Symbol.asyncDispose]: () => p.twin.close() };
}
