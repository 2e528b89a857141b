// Real agents through Baton's inference proxy, with the model twin as every provider's upstream:
// the agent holds a run token, never the upstream key (not in its processes' environments, its
// home, or anything the run leaves); the twin sees only the key (it refuses anything else);
// Baton counts every model call the twin answered; a request cap holds at the twin.
import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, test as nodeTest } from "node:test";
import type { Envelope } from "@baton/protocol";
import { eventsOfType, onlyRunId, readEvents, runsDir, startBaton } from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import { agentProcesses, diagnostics, disposable, project, RUN_MODELS, SCENARIO_TIMEOUT_MS, UPSTREAM_KEY, workspacePath, type Project } from "./baton-project.ts";

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile() && (await stat(path)).size < 50_000_000) out.push(path);
  }
  return out;
}

/** `baton run` of the agent, reading each agent process's environment while it runs. */
async function runWatched(p: Project, task: string, extra: string[] = []) {
  const child = startBaton(p.repo, ["run", task, "--agent", p.agent, "--model", RUN_MODELS[p.agent], "--json", ...extra], { env: p.env });
  const environs = new Map<number, { environ: string; cmdline: string }>();
  let done = false;
  const finished = child.done.finally(() => (done = true));
  while (!done) {
    for (const process of agentProcesses(p.agent, p.home)) {
      if (environs.has(process.pid)) continue;
      const environ = await readFile(`/proc/${process.pid}/environ`, "latin1").catch(() => undefined);
      // A process that is exiting (or not yet exec'd) reads as an empty environment: try again later.
      if (environ !== undefined && environ !== "") environs.set(process.pid, { environ, cmdline: process.cmdline });
    }
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  const result = await finished;
  const runId = await onlyRunId(p.repo);
  return { result, events: await readEvents(p.repo, runId), environs, runDir: join(runsDir(p.repo), runId) };
}

const modelCalls = (p: Project) => p.twin.requests.filter((r) => r.api !== null);
const completed = (events: readonly Envelope[]) => eventsOfType<{ status: number | null; request_id: string }>(events, "model.request.completed");

describe("real agents through Baton's inference proxy and the model twin", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const plan = agentTestPlan(agent);
    const options = { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 };
    const test = (name: string, fn: () => Promise<void>): void => {
      nodeTest(name, options, async () => {
        if (plan.missing !== undefined) assert.fail(plan.missing);
        await fn();
      });
    };

    test(`${agent}: writes a file through the proxy; the key is nowhere the agent can reach, the twin sees only it, and the counts agree`, async () => {
      const content = `written by ${agent} through the proxy\n`;
      await using p = disposable(await project(agent, { name: "write", path: "notes/proxied.txt", content, reply: "Done." }));
      const { result, events, environs, runDir } = await runWatched(p.p, "Create notes/proxied.txt.");
      const why = () => `${diagnostics(p.p, events, result.stderr)}\ncredentials: ${p.p.twin.requests.map((r) => r.credential).join(",")}`;
      assert.equal(result.code, 0, why());
      assert.equal(await readFile(join(workspacePath(events), "notes", "proxied.txt"), "utf8"), content, why());
      // The twin took every request with the upstream key, and Baton counted each model call it answered.
      assert.ok(p.p.twin.requests.length > 0 && p.p.twin.requests.every((r) => r.credential === "expected"), why());
      assert.equal(completed(events).length, modelCalls(p.p).length, `Baton's count is the twin's\n${why()}`);
      // Every call made while the agent worked (up to its last turn's end) was answered in full. An
      // agent may start a background call (Claude Code's title or summary request) once its turn has
      // ended, as its session closes: that call is cut by the agent's exit or the run's end, and
      // recorded as cut, never as answered.
      const workEnded = events.findLastIndex((e) => e.type === "turn.completed");
      for (const call of completed(events)) {
        if (workEnded === -1 || events.indexOf(call) < workEnded) assert.equal(call.data.status, 200, `${call.data.request_id} was answered\n${why()}`);
        else assert.ok(call.data.status === 200 || /the run ended|the agent closed the connection/.test(String((call.data as { error?: string }).error)), `${call.data.request_id} is answered or cut by the run's end\n${why()}`);
      }
      // Every tool call the model asked for was reported over ACP.
      assert.deepEqual(eventsOfType<{ code?: string }>(events, "log").filter((e) => e.data.code === "unreported_tool_calls").map((e) => e.data), [], why());
      // No agent process held the key; each held a run token.
      assert.ok(environs.size > 0, `read at least one agent process's environment\n${why()}`);
      for (const [pid, { environ, cmdline }] of environs) {
        assert.ok(!environ.includes(UPSTREAM_KEY), `the key is in /proc/${pid}/environ (${cmdline})`);
        assert.match(environ, /baton-run-/, `pid ${pid} holds a run token (${cmdline})`);
      }
      for (const file of [...(await filesUnder(p.p.home)), ...(await filesUnder(runDir))]) {
        const text = await readFile(file, "latin1");
        assert.ok(!text.includes(UPSTREAM_KEY), `the key is in ${file}`);
        if (file.startsWith(runDir)) assert.ok(!/baton-run-[A-Za-z0-9_-]{8}/.test(text), `a run token is in ${file}`);
      }
    });

    test(`${agent}: --max-requests 1 holds at the twin: one model call answered, the next refused before it, the run stopped by requests`, async () => {
      await using p = disposable(await project(agent, { name: "write", path: "notes/capped.txt", content: "capped\n", reply: "Done." }));
      const { result, events } = await runWatched(p.p, "Create notes/capped.txt.", ["--max-requests", "1"]);
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(modelCalls(p.p).length, 1, why());
      assert.equal(completed(events).length, 1, why());
      assert.ok(eventsOfType(events, "model.request.refused").length >= 1, why());
      assert.equal(result.code, 3, why());
      assert.equal((events.at(-1)?.data as { stopped_by?: string }).stopped_by, "requests", why());
    });
  }
});
