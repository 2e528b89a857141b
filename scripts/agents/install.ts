#!/usr/bin/env node
// Installs the pinned real agents into the cache, each into its own npm prefix:
//   node scripts/agents/install.ts              all of them
//   node scripts/agents/install.ts gemini codex  a subset
// An agent already installed at its pinned version is skipped. BATON_AGENTS_CACHE moves the cache.
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { AGENT_NAMES, AGENT_PINS, agentDir, isAgentInstalled, isAgentName, installedAgentVersion } from "./agent-cache.ts";
import type { AgentName } from "./agent-cache.ts";

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** Disk use of a folder in MB, as `du` counts it (hard links once, blocks not bytes). */
async function diskMegabytes(dir: string): Promise<number> {
  const { code, output } = await run("du", ["-sk", dir]);
  if (code !== 0) return Number.NaN;
  return Math.round(Number(output.split(/\s/)[0]) / 1024);
}

async function install(agent: AgentName): Promise<boolean> {
  const { package: pkg, version } = AGENT_PINS[agent];
  const dir = agentDir(agent);
  if (isAgentInstalled(agent)) {
    console.log(`${agent}: ${pkg}@${version} already installed in ${dir} (${await diskMegabytes(dir)} MB)`);
    return true;
  }
  const found = installedAgentVersion(agent);
  console.log(`${agent}: installing ${pkg}@${version} into ${dir}${found === undefined ? "" : ` (replacing ${found})`} …`);
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const { code, output } = await run(npm, ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", `${pkg}@${version}`]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code !== 0 || !isAgentInstalled(agent)) {
    console.error(`${agent}: install failed after ${seconds} s (npm exit ${code})\n${output.trim()}`);
    return false;
  }
  console.log(`${agent}: installed ${pkg}@${version} in ${seconds} s, ${await diskMegabytes(dir)} MB`);
  return true;
}

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !isAgentName(name));
if (unknown.length > 0) {
  console.error(`unknown agent ${unknown.map((name) => JSON.stringify(name)).join(", ")}; known agents: ${AGENT_NAMES.join(", ")}`);
  process.exit(2);
}
const agents = requested.length === 0 ? AGENT_NAMES : requested.filter(isAgentName);
let failed = 0;
// One at a time: parallel installs of several hundred MB each fight over disk and network.
for (const agent of agents) if (!(await install(agent))) failed++;
process.exitCode = failed === 0 ? 0 : 1;
