// One measured run of a real agent against the model twin, each in a fresh git repository and
// a fresh throwaway home: through the bare ACP client (bare-agent-client.ts, a child process) or
// through `baton run --json` (the CLI as a child process). Both are timed from spawn to exit;
// afterwards any process left with the run's home is killed, group and all.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { appendFile, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ModelTwin } from "@baton/testkit/model-twin";
import { agentBinPath, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { agentLaunch, DEFAULT_MODELS, isolatedEnv } from "../../test/real-agents/agent-profiles.ts";
import { cliEntry, repoRoot } from "../measure.ts";
import type { BareLaunch, BareOutcome } from "./bare-agent-client.ts";
import type { BareSample, BatonSample } from "./startup-report.ts";

/** A real agent's start and one turn on a loaded 2-core machine, with room to spare; past it the run fails. */
const RUN_TIMEOUT_MS = 180_000;
/** The tail of a failed run's output shown in its error: enough to see why, not the agent's whole chatter. */
const FAILURE_TAIL_CHARS = 2_000;

const TASK = "Create notes/hello.txt with a greeting.";
const FILE = "notes/hello.txt";

/** What each agent needs in `.baton/config.toml` to reach the twin (as in test/real-agents/conformance.test.ts). */
const BATON_AGENT_CONFIG: Partial<Record<AgentName, string>> = { codex: `[agents.codex]\npass_env = ["TWIN_API_KEY"]\n` };
/** `--model` as each agent names the twin's model: OpenCode's ids are provider/model. */
const RUN_MODELS: Record<AgentName, string> = { ...DEFAULT_MODELS, opencode: `twin/${DEFAULT_MODELS.opencode}` };

const GIT_IDENTITY = { GIT_AUTHOR_NAME: "Baton Bench", GIT_AUTHOR_EMAIL: "bench@baton.invalid", GIT_COMMITTER_NAME: "Baton Bench", GIT_COMMITTER_EMAIL: "bench@baton.invalid" };
const bareClient = path.join(repoRoot, "bench", "agents", "bare-agent-client.ts");

type Fixture = { repo: string; home: string; twin: ModelTwin; content: string };

/** A git repository with one commit (`.baton/` too when `batonInit`), a home, and a twin playing `write`. */
async function fixture(scratch: string, agent: AgentName, batonInit: boolean): Promise<Fixture> {
  const repo = await mkdtemp(path.join(scratch, `repo-${agent}-`));
  const home = await mkdtemp(path.join(scratch, `home-${agent}-`));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore", env: { ...process.env, ...GIT_IDENTITY } });
  git("init", "-q", "-b", "main");
  await writeFile(path.join(repo, "README.md"), "# bench\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "Initial commit");
  if (batonInit) {
    execFileSync(process.execPath, [cliEntry, "-C", repo, "init"], { stdio: "ignore" });
    await appendFile(path.join(repo, ".baton", "config.toml"), `\n${BATON_AGENT_CONFIG[agent] ?? ""}`);
  }
  const content = `hello from ${agent}, timed\n`;
  const twin = await ModelTwin.start({ scenario: { name: "write", path: FILE, content, reply: "The file is written." } });
  return { repo, home, twin, content };
}

type Timed = { ms: number; spawnedAt: number; code: number | null; stdout: string; stderr: string };

/** Runs `node <args>` to its exit; wall time from spawn. Keeps stdout if asked (else /dev/null, as a user's `> /dev/null`) and stderr's tail. */
async function timedNode(args: readonly string[], cwd: string, env: Record<string, string>, keepStdout: boolean): Promise<Timed> {
  const spawnedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-FAILURE_TAIL_CHARS)));
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  }).finally(() => clearTimeout(timer));
  return { ms: performance.now() - started, spawnedAt, code, stdout, stderr };
}

async function readWritten(file: string): Promise<string> {
  return readFile(file, "utf8").catch(() => "(missing)");
}

/** The bare ACP SDK client drives the agent through one write turn. */
export async function bareRun(agent: AgentName, scratch: string): Promise<BareSample & { leftovers: number }> {
  const f = await fixture(scratch, agent, false);
  try {
    const launch = await agentLaunch(agent, { twinUrl: f.twin.url, home: f.home, model: DEFAULT_MODELS[agent] });
    const bare: BareLaunch = { cwd: f.repo, command: launch.command, args: launch.args, env: { ...isolatedEnv(f.home), ...launch.env }, clientFs: launch.clientFs, task: TASK };
    if (launch.sessionMode !== undefined) bare.sessionMode = launch.sessionMode;
    const launchFile = path.join(f.home, "bench-launch.json");
    await writeFile(launchFile, JSON.stringify(bare));
    const run = await timedNode([bareClient, launchFile], f.repo, { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }, true);
    if (run.code !== 0) throw new Error(`the bare client exited ${run.code}:\n${run.stderr}`);
    const outcome = JSON.parse(run.stdout) as BareOutcome;
    const written = await readWritten(path.join(f.repo, FILE));
    if (outcome.stopReason !== "end_turn" || written !== f.content) {
      throw new Error(`the bare ${agent} turn ended ${outcome.stopReason}, ${FILE}: ${JSON.stringify(written)}\nagent stderr (tail):\n${outcome.stderrTail.slice(-FAILURE_TAIL_CHARS)}`);
    }
    const sample = { readyMs: outcome.readyMs, clientStartMs: outcome.agentSpawnedAt - run.spawnedAt, turnMs: outcome.turnMs, stopMs: outcome.stopMs, totalMs: run.ms };
    return { ...sample, leftovers: killLeftovers(f.home) };
  } finally {
    await f.twin.close();
    killLeftovers(f.home);
  }
}

type Envelope = { type: string; at: string; data: Record<string, unknown> };

/** `baton run --agent NAME --json` in a repository with `.baton/`, the agent found through BATON_AGENT_PATH. */
export async function batonRun(agent: AgentName, scratch: string): Promise<BatonSample & { leftovers: number }> {
  const f = await fixture(scratch, agent, true);
  try {
    const launch = await agentLaunch(agent, { twinUrl: f.twin.url, home: f.home, model: DEFAULT_MODELS[agent] });
    // As conformance.test.ts starts baton: only what git, sh and node need, the profile's variables, the agent's folder.
    const env: Record<string, string> = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...GIT_IDENTITY, GIT_CONFIG_NOSYSTEM: "1", ...launch.env, HOME: f.home, BATON_AGENT_PATH: path.dirname(agentBinPath(agent)) };
    const run = await timedNode([cliEntry, "-C", f.repo, "run", TASK, "--agent", agent, "--model", RUN_MODELS[agent], "--json", "--timeout", "10m"], f.repo, env, false);
    const events = await runEvents(f.repo);
    const last = events.at(-1);
    const tail = () => `\nlast events: ${events.slice(-4).map((e) => `${e.type} ${JSON.stringify(e.data).slice(0, 300)}`).join("\n")}\nstderr (tail):\n${run.stderr}`;
    if (run.code !== 0 || last?.type !== "run.completed") throw new Error(`baton run --agent ${agent} exited ${run.code}, last event ${last?.type}${tail()}`);
    const workspace = events.find((e) => e.type === "workspace.ready")?.data["path"];
    const written = await readWritten(path.join(typeof workspace === "string" ? workspace : f.repo, FILE));
    if (written !== f.content) throw new Error(`baton run --agent ${agent} left ${FILE}: ${JSON.stringify(written)}${tail()}`);
    const started = events.find((e) => e.type === "agent.started");
    const turn = events.find((e) => e.type === "turn.completed")?.data["duration_ms"];
    if (started === undefined || typeof turn !== "number") throw new Error(`baton run --agent ${agent} logged no agent.started or turn.completed${tail()}`);
    return { readyMs: Date.parse(started.at) - run.spawnedAt, turnMs: turn, totalMs: run.ms, leftovers: killLeftovers(f.home) };
  } finally {
    await f.twin.close();
    killLeftovers(f.home);
  }
}

async function runEvents(repo: string): Promise<Envelope[]> {
  const runs = path.join(repo, ".baton", "runs");
  const [run] = await readdir(runs).catch(() => []);
  if (run === undefined) return [];
  const text = await readFile(path.join(runs, run, "events.jsonl"), "utf8");
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Envelope);
}

/**
 * Kills every live process whose environment has `HOME=<home>` (the run's throwaway home, so
 * nothing of another run or another user of the machine), with its process group, and says how
 * many there were. Both clients stop their agent's group themselves; this is the check that
 * they did, and the guarantee that nothing outlives the run.
 */
export function killLeftovers(home: string): number {
  const marker = `\0HOME=${home}\0`;
  const ownGroup = processGroup("self");
  let found = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3))) continue;
      if (!`\0${readFileSync(`/proc/${name}/environ`, "utf8")}`.includes(marker)) continue;
      found += 1;
      const group = processGroup(name);
      process.kill(group > 1 && group !== ownGroup ? -group : Number(name), "SIGKILL");
    } catch {
      // It exited while we looked, or it is not ours to read.
    }
  }
  return found;
}

/** The process group of `/proc/<pid>` (`self` for this process): the third field after the command. */
function processGroup(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}
