// Real-agent start-up: for each installed real agent (claude, opencode, codex, gemini), against
// the model twin's `write` scenario, in a fresh git repository and throwaway home per run:
//   - the bare ACP SDK client (bare-agent-client.ts, a child process): agent spawn → `session/new`
//     answered (ready), `session/prompt` sent → answered (one write tool call, then text), the
//     agent's stop, and the client process from spawn to exit (total);
//   - `baton run --agent NAME --json > /dev/null` (the CLI as a child process, after `baton init`):
//     Baton's spawn → `agent.started` logged (ready), the turn's `duration_ms`, spawn to exit (total);
//   - Baton's ratio over the bare client, of medians, measured in the same run.
// Sides alternate which goes first. Agents not installed are skipped with the command that
// installs them. Prints figures; asserts nothing about timing (a failed turn is a failure).
//   node bench/agents/startup.bench.ts [--runs N] [--agents claude,codex] [--quick]   (default 5 runs)
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AGENT_NAMES, AGENT_PINS, agentBinPath, isAgentInstalled, type AgentName } from "../../scripts/agents/agent-cache.ts";
import { batonRun, bareRun } from "./agent-runs.ts";
import { formatAgent, formatSummary, parseStartupArgs, type AgentFigures, type BareSample, type BatonSample } from "./startup-report.ts";

const { runs, agents } = parseStartupArgs(process.argv.slice(2), process.env, AGENT_NAMES);

console.log(`real-agent start-up against the model twin (write scenario): ${runs} runs per side and agent, fresh repo and home per run; medians, min–max`);
const measured: AgentFigures[] = [];
const failed: string[] = [];
for (const agent of agents as AgentName[]) {
  const { package: pkg, version } = AGENT_PINS[agent];
  if (!isAgentInstalled(agent)) {
    console.log(`${agent}: skipped, ${pkg}@${version} is not installed at ${agentBinPath(agent)}; run: npm run agents:install -- ${agent}`);
    continue;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), `baton-bench-startup-${agent}-`));
  const figures: AgentFigures = { agent, version, bare: [], baton: [] };
  let leftovers = 0;
  try {
    for (let round = 0; round < runs; round += 1) {
      // Alternate which side goes first, so that neither always meets a warmer page cache.
      const sides = round % 2 === 0 ? (["bare", "baton"] as const) : (["baton", "bare"] as const);
      for (const side of sides) {
        if (side === "bare") {
          const { leftovers: left, ...sample } = await bareRun(agent, scratch);
          figures.bare.push(sample satisfies BareSample);
          leftovers += left;
        } else {
          const { leftovers: left, ...sample } = await batonRun(agent, scratch);
          figures.baton.push(sample satisfies BatonSample);
          leftovers += left;
        }
      }
    }
  } catch (error) {
    failed.push(agent);
    console.log(`${agent}: FAILED after ${figures.bare.length} bare / ${figures.baton.length} baton runs: ${(error as Error).message}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  for (const line of formatAgent(figures)) console.log(line);
  if (leftovers > 0) console.log(`  ${leftovers} process(es) outlived their run and were killed`);
  measured.push(figures);
}
if (measured.length > 1) {
  console.log("summary (medians):");
  for (const line of formatSummary(measured)) console.log(line);
}
if (failed.length > 0) process.exitCode = 1;
