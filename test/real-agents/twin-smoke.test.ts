// Each installed real agent, pointed at the model twin, writes a file in a git repository on the
// twin's `write` scenario and ends its turn. Install agents with `npm run agents:install`; the
// ones not installed are skipped. Nothing leaves the machine: the twin is on loopback and each
// agent runs with a throwaway home and an environment built from scratch.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { testTempDir } from "@baton/protocol/testing";
import { ModelTwin } from "@baton/testkit/model-twin";
import type { FaultInput, TwinRequestRecord } from "@baton/testkit/model-twin";
import { AGENT_NAMES, AGENT_PINS, agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import type { AgentName } from "../../scripts/agents/agent-cache.ts";
import { agentLaunch, DEFAULT_MODELS, isolatedEnv } from "./agent-profiles.ts";
import { driveRealAgent } from "./real-agent-client.ts";

/** A real agent's first turn: start-up, a title call or two, the tool call, the follow-up. */
const TURN_TIMEOUT_MS = 120_000;

async function gitRepo(): Promise<string> {
  // realpath: agents report resolved paths, and macOS temp dirs are symlinks.
  const repo = await realpath(await testTempDir("real-agent-repo-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=Baton", "-c", "user.email=baton@example.invalid", "commit", "-q", "--allow-empty", "-m", "empty");
  return repo;
}

describe("real agents against the model twin", () => {
  for (const agent of AGENT_NAMES) {
    const { skip, missing } = agentTestPlan(agent);
    test(`${agent} writes a file on the write scenario and ends the turn`, { skip, timeout: TURN_TIMEOUT_MS + 30_000 }, async () => {
      if (missing !== undefined) assert.fail(missing);
      await smokeWrite(agent);
    });
    test(`${agent} retries a 429 with retry-after and still writes the file`, { skip, timeout: TURN_TIMEOUT_MS + 30_000 }, async () => {
      if (missing !== undefined) assert.fail(missing);
      const twin = await smokeWrite(agent, { kind: "status", status: 429, retryAfter: 1, times: 1 });
      const main = twin.filter((r) => r.role === "main");
      assert.deepEqual(main.slice(0, 2).map((r) => r.status), [429, 200]);
    });
  }
});

/** Runs one write turn; returns what the twin saw. */
async function smokeWrite(agent: AgentName, fault?: FaultInput): Promise<readonly TwinRequestRecord[]> {
  const repo = await gitRepo();
  const home = await testTempDir(`real-agent-home-${agent}-`);
  const content = `hello from ${agent} via the model twin\n`;
  await using twin = await ModelTwin.start({
    scenario: { name: "write", path: "notes/hello.txt", content, reply: "The file is written.", ...(fault === undefined ? {} : { fault }) },
    logFile: join(home, "twin-requests.ndjson"),
  });
  const launch = await agentLaunch(agent, { twinUrl: twin.url, home, model: DEFAULT_MODELS[agent] });
  const env = { ...isolatedEnv(home), ...launch.env };
  const startedAt = performance.now();
  const outcome = await driveRealAgent(launch, env, repo, async (ctx, client) => {
    const fs = launch.clientFs ? { readTextFile: true, writeTextFile: true } : { readTextFile: false, writeTextFile: false };
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs } });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [] });
    const readyMs = performance.now() - startedAt;
    if (launch.sessionMode !== undefined) await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: launch.sessionMode });
    const response = await withTimeout(
      ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Create notes/hello.txt with a greeting." }] }),
      TURN_TIMEOUT_MS,
      () => `no answer to session/prompt; agent stderr:\n${client.stderr().slice(-4000)}`,
    );
    return { response, readyMs, client };
  });
  const turnMs = performance.now() - startedAt - outcome.readyMs;
  const diagnostics = () =>
    `twin saw:\n${twin.requests.map((r) => `${r.seq} ${r.method} ${r.path} ${r.role} ${r.status} ${JSON.stringify(r.reply ?? null).slice(0, 300)}`).join("\n")}\nagent stderr:\n${outcome.client.stderr().slice(-4000)}`;
  assert.equal(outcome.response.stopReason, "end_turn", diagnostics());
  assert.equal(await readFile(join(repo, "notes", "hello.txt"), "utf8").catch(() => "(missing)"), content, diagnostics());
  const main = twin.requests.filter((r) => r.role === "main" && r.status === 200);
  assert.ok(main.some((r) => r.reply?.kind === "tool"), `the twin never made a tool call\n${diagnostics()}`);
  assert.equal(main.at(-1)?.reply?.kind, "text", diagnostics());
  assert.equal(twin.requests.filter((r) => r.role === "unknown").length, 0, diagnostics());
  console.log(
    `# ${agent} ${AGENT_PINS[agent].version}: ready ${Math.round(outcome.readyMs)} ms, turn ${Math.round(turnMs)} ms, ` +
      `${twin.requests.length} twin requests (${main.length} main), ${outcome.client.permissionRequests.length} permission request(s), ` +
      `${outcome.client.clientWrites.length} client write(s)${fault === undefined ? "" : `, fault ${fault.kind} ${"status" in fault ? fault.status : ""}`}`,
  );
  return twin.requests;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
