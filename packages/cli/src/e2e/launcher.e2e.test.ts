import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import {
  eventsOfType,
  fakeAgentsPlaying,
  killGroup,
  killProcessesNaming,
  listProcesses,
  makeRepo,
  readEvents,
  runBaton,
  startBaton,
  waitFor,
  waitForAgentGroup,
  waitForEvent,
  waitForOnlyRun,
  writeScript,
  type BatonProcess,
} from "./cli-harness.ts";

// bin/baton.js started by a Node older than 24 starts Baton again on the project's Node 24:
// these tests start it as users do on such a machine, with the system's older Node.

const LONG_SCRIPT = [{ say: "Waiting." }, { run: "echo started" }, { sleep: 600_000 }, { say: "never said" }];

/** A Node older than 24 on this machine (on PATH or the usual places), if there is one. */
function olderNode(): string | undefined {
  const candidates = [...(process.env["PATH"] ?? "").split(delimiter).map((dir) => join(dir, "node")), "/usr/bin/node", "/usr/local/bin/node"];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const major = Number(execFileSync(path, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim());
      if (major < 24) return path;
    } catch {
      // Not a Node that runs here.
    }
  }
  return undefined;
}

const OLDER_NODE = olderNode();
const skip = OLDER_NODE === undefined ? "no Node older than 24 on this machine: bin/baton.js runs Baton in-process" : false;

/** The launcher running a run of LONG_SCRIPT, waiting in its sleep; and Baton on Node 24, its child. */
async function launchedRun(t: test.TestContext, options: { ownGroup?: boolean } = {}) {
  const repo = await makeRepo("cli-launcher-");
  const script = await writeScript(repo, "long.json", LONG_SCRIPT);
  const launcher = startBaton(repo, ["run", "Wait", "--agent", "fake", "--script", script, "--json"], { launcherNode: OLDER_NODE as string, ...options });
  t.after(() => launcher.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the command before the wait", (event) => event.type === "tool.completed");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  const baton = listProcesses().find((info) => info.ppid === launcher.pid && info.state !== "Z");
  assert.ok(baton !== undefined, "the launcher runs Baton as its child");
  t.after(() => killProcessesNaming(script));
  return { repo, script, launcher, runId, baton: baton.pid };
}

async function assertCancelled(repo: string, runId: string, launcher: BatonProcess, reason: string): Promise<void> {
  const result = await launcher.done;
  assert.equal(result.code, 130, result.stderr);
  const events = await readEvents(repo, runId);
  assert.equal(events.at(-1)?.type, "run.cancelled");
  assert.deepEqual(events.at(-1)?.data, { by: "user", reason });
  assert.equal(eventsOfType(events, "turn.completed").at(-1)?.data["stop_reason"], "cancelled");
}

for (const [signal, reason] of [
  ["SIGINT", "interrupted (Ctrl-C)"],
  ["SIGTERM", "received SIGTERM"],
  ["SIGHUP", "received SIGHUP"],
] as const) {
  test(`${signal} sent to the launcher alone reaches Baton: the run is cancelled cleanly, exit 130`, { skip }, async (t) => {
    const { repo, launcher, runId } = await launchedRun(t);
    process.kill(launcher.pid, signal);
    await assertCancelled(repo, runId, launcher, reason);
  });
}

test("Ctrl-C at a terminal (SIGINT to the launcher's whole process group) is one interrupt: the run is cancelled cleanly", { skip }, async (t) => {
  const { repo, launcher, runId } = await launchedRun(t, { ownGroup: true });
  // Baton gets it twice, from the terminal and from the launcher: counted once, it cancels
  // the run; counted twice it would leave the run at once, with no terminal event.
  process.kill(-launcher.pid, "SIGINT");
  await assertCancelled(repo, runId, launcher, "interrupted (Ctrl-C)");
});

test("kill -9 of the launcher mid-run ends Baton and its agent with it: the next command records run.failed interrupted", { skip }, async (t) => {
  const { repo, script, launcher, runId, baton } = await launchedRun(t);
  process.kill(launcher.pid, "SIGKILL");
  await launcher.done;
  const isGone = (pid: number) => !listProcesses().some((info) => info.pid === pid && info.state !== "Z" && info.state !== "X");
  await waitFor("Baton to end with its launcher", () => isGone(baton));
  await waitFor("the agent to end with Baton", () => fakeAgentsPlaying(script).length === 0);
  // Nothing went on unattended: the run has no end of its own.
  const before = await readEvents(repo, runId);
  assert.ok(!before.some((event) => ["run.completed", "run.cancelled", "run.failed"].includes(event.type)), "no terminal event from Baton itself");

  const shown = await runBaton(repo, ["events", "1", "--json"]);
  assert.equal(shown.code, 0, shown.stderr);
  const events = await readEvents(repo, runId);
  assert.equal(events.at(-1)?.type, "run.failed");
  assert.equal((events.at(-1)?.data["error"] as { code?: string } | undefined)?.code, "interrupted");
});
