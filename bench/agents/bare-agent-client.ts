// The baseline of startup.bench.ts: the least a client does to run one real agent through one
// turn, with the ACP SDK and nothing of Baton. It starts the agent in its own process group,
// sends `initialize` and `session/new` (ready), the profile's `session/set_mode` if any, one
// `session/prompt` (the turn), answers permission requests with allow_once, serves the client
// `fs` when the profile allows it, discards updates, then ends the agent the way Baton does
// (stdin closed, SIGTERM then SIGKILL to the group after a grace each) and reports its phases
// as one JSON line on stdout. The agent's stderr is kept to show only when the turn fails.
//   node bench/agents/bare-agent-client.ts <launch.json>
// The parent times this process from spawn to exit, as it times `baton run`.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { allowingClient } from "@baton/testkit/allowing-client";

export type BareLaunch = {
  cwd: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  clientFs: boolean;
  sessionMode?: string;
  task: string;
};

export type BareOutcome = {
  /** `Date.now()` as the agent was spawned: the parent subtracts its own spawn of this client. */
  agentSpawnedAt: number;
  /** Agent spawn → `session/new` answered. */
  readyMs: number;
  /** `session/prompt` sent → answered. */
  turnMs: number;
  /** stdin closed → the agent exited. */
  stopMs: number;
  stopReason: string;
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
};

/** Baton's own grace (engine `agent-session.ts` EXIT_GRACE_MS), so that both sides stop alike. */
const EXIT_GRACE_MS = 2_000;
/** Enough of the agent's stderr to explain a failed turn. */
const STDERR_TAIL_CHARS = 4_000;

const launchFile = process.argv[2];
if (launchFile === undefined) throw new Error("usage: bare-agent-client.ts <launch.json>");
const launch = JSON.parse(await readFile(launchFile, "utf8")) as BareLaunch;

const agentSpawnedAt = Date.now();
const spawnedAt = performance.now();
const agent = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
agent.stdin.on("error", () => {}); // EPIPE once the agent is gone: expected at shutdown
let stderr = "";
agent.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-STDERR_TAIL_CHARS)));
const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => agent.once("close", (code, signal) => resolve({ code, signal })));
let hasExited = false;
void exited.then(() => (hasExited = true));

const client = allowingClient("bare-startup-bench-client")
  .onNotification(acp.methods.client.session.update, () => {});

let phases: { readyMs: number; turnMs: number; stopReason: string } | undefined;
let failure: unknown;
try {
  const stream = acp.ndJsonStream(Writable.toWeb(agent.stdin) as WritableStream<Uint8Array>, Readable.toWeb(agent.stdout) as ReadableStream<Uint8Array>);
  phases = await client.connectWith(stream, async (ctx) => {
    const fs = { readTextFile: launch.clientFs, writeTextFile: launch.clientFs };
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs, terminal: false } });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: launch.cwd, mcpServers: [] });
    const readyMs = performance.now() - spawnedAt;
    if (launch.sessionMode !== undefined) await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: launch.sessionMode });
    const promptAt = performance.now();
    const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: launch.task }] });
    return { readyMs, turnMs: performance.now() - promptAt, stopReason };
  });
} catch (error) {
  failure = error;
}

// Stop as Baton's AgentProcess.stop does: stdin closed, a grace, SIGTERM to the group, a grace, SIGKILL.
const stopAt = performance.now();
agent.stdin.end();
if (!(await exitedWithin(EXIT_GRACE_MS))) {
  signalGroup("SIGTERM");
  if (!(await exitedWithin(EXIT_GRACE_MS))) signalGroup("SIGKILL");
}
const exit = await exited;
const stopMs = performance.now() - stopAt;
signalGroup("SIGKILL"); // helpers the agent left in its group

if (phases === undefined) {
  process.stderr.write(`the turn failed: ${failure instanceof Error ? failure.message : JSON.stringify(failure)}\nagent stderr (tail):\n${stderr}\n`);
  process.exitCode = 1;
} else {
  const outcome: BareOutcome = { agentSpawnedAt, ...phases, stopMs, exitCode: exit.code, signal: exit.signal, stderrTail: stderr };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}

async function exitedWithin(ms: number): Promise<boolean> {
  if (hasExited) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([exited.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}

function signalGroup(signal: NodeJS.Signals): void {
  if (agent.pid === undefined) return;
  try {
    process.kill(-agent.pid, signal);
  } catch {
    // the group is gone already
  }
}
