// Real agents through a workflow: `baton run --workflow` with three working stages, agent plan →
// agent implement → command check, each agent in turn against the model twin. Each agent stage
// starts a session of its own on its own prompt; the twin's `by_prompt` scenario answers the
// plan's prompt with text and the implement's with a file write, so no scenario switch has to be
// timed between the stages. Agents that are not installed are skipped with the command that
// installs them (BATON_REQUIRE_AGENTS turns that into a failure).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import type { Envelope } from "@baton/protocol";
import { foldRun, isFinalType, openStages } from "@baton/protocol/core";
import type { ScenarioInput } from "@baton/testkit/model-twin";
import { eventsOfType } from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import { diagnostics, disposable, project, runAgent, SCENARIO_TIMEOUT_MS, workspacePath, type Project } from "./baton-project.ts";

const FILE = "notes/feature.txt";
const PLAN_PROMPT = "Plan stage: write a short plan for adding notes/feature.txt. Change no file.";
const IMPLEMENT_PROMPT = "Implement stage: create notes/feature.txt with one line saying what it is.";
const PLAN_REPLY = "The plan: 1. create notes/feature.txt with one line; 2. check that it exists.";

const WORKFLOW = `digraph plan_implement_check {
  goal = "Add notes/feature.txt"
  start [shape=Mdiamond]
  plan [label="Plan", prompt="${PLAN_PROMPT}"]
  implement [label="Implement", prompt="${IMPLEMENT_PROMPT}"]
  check [shape=parallelogram, label="Check", script="test -s ${FILE}"]
  exit [shape=Msquare]
  start -> plan -> implement -> check
  check -> exit [condition="outcome=succeeded"]
}
`;

const STAGES = ["start", "plan", "implement", "check", "exit"];

/**
 * Codex runs every command through its sandbox helper; with a system bubblewrap older than 0.9
 * (no --argv0) and CODEX_HOME inside the temp directory, bwrap cannot find the helper, every
 * command fails before Codex reports a tool call, and only the model sees why: in the output
 * Codex sends back. That condition is known (the agent profile's TMPDIR keeps CODEX_HOME out of
 * it); this says when a run met it.
 */
function codexSandboxMissing(p: Project): boolean {
  return p.agent === "codex" && p.twin.requests.some((request) => JSON.stringify(request.body).includes("execvp codex-linux-sandbox"));
}

async function workflowProject(agent: Project["agent"]) {
  const content = `written by ${agent} in the implement stage\n`;
  const scenario: ScenarioInput = {
    name: "by_prompt",
    cases: [
      { contains: "Plan stage:", scenario: { name: "text", reply: PLAN_REPLY } },
      { contains: "Implement stage:", scenario: { name: "write", path: FILE, content, reply: "Created it." } },
    ],
  };
  const p = disposable(await project(agent, scenario));
  await mkdir(join(p.p.repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(p.p.repo, ".baton", "workflows", "plan-implement-check.dot"), WORKFLOW);
  return { ...p, content };
}

function inStage(events: readonly Envelope[], prefix: string, stage: string): Envelope[] {
  return events.filter((event) => event.type.startsWith(prefix) && event.stage?.id === stage);
}

describe("real agents walk a workflow: agent plan, agent implement, command check", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const plan = agentTestPlan(agent);
    test(`${agent}: plan, implement and check each run once; tool events name their stage; a checkpoint per stage; the file is committed`, { skip: plan.skip, timeout: 2 * SCENARIO_TIMEOUT_MS + 30_000 }, async (t: TestContext) => {
      if (plan.missing !== undefined) assert.fail(plan.missing);
      await using p = await workflowProject(agent);
      const { result, events } = await runAgent(p.p, "Add notes/feature.txt", ["--workflow", "plan-implement-check"]);
      const why = () => diagnostics(p.p, events, result.stderr);
      if (result.code !== 0 && codexSandboxMissing(p.p)) {
        t.skip("codex could not run its write command: the system bubblewrap is older than 0.9 and cannot find codex-linux-sandbox (bwrap: execvp codex-linux-sandbox); the agent profile must keep CODEX_HOME outside TMPDIR");
        return;
      }
      assert.equal(result.code, 0, why());
      assert.equal(events.at(-1)?.type, "run.completed", why());

      // Three working stage visits (and the start and exit markers), each once, each succeeded.
      assert.deepEqual(eventsOfType<{ stage: string; visit: number }>(events, "stage.started").map((e) => `${e.data.stage}@${e.data.visit}`), STAGES.map((s) => `${s}@1`), why());
      assert.deepEqual(eventsOfType<{ stage: string; outcome: string }>(events, "stage.completed").map((e) => `${e.data.stage}:${e.data.outcome}`), STAGES.map((s) => `${s}:succeeded`), why());
      assert.equal(eventsOfType(events, "stage.failed").length, 0, why());

      // Each agent stage is a session of its own; every tool, turn and permission event names its stage.
      assert.deepEqual(eventsOfType(events, "agent.started").map((e) => e.stage?.id), ["plan", "implement"], why());
      for (const event of events.filter((e) => /^(tool|turn|permission)\./.test(e.type))) {
        assert.ok(event.stage?.id === "plan" || event.stage?.id === "implement", `${event.type} #${event.seq} names an agent stage, not ${JSON.stringify(event.stage)}\n${why()}`);
      }
      assert.ok(inStage(events, "tool.completed", "implement").length >= 1, `the implement stage's write is a tool call of that stage\n${why()}`);
      assert.equal(inStage(events, "tool.", "plan").length, 0, `the plan stage only answered\n${why()}`);
      assert.ok(inStage(events, "agent.message", "plan").length >= 1, `the plan stage's answer is recorded in it\n${why()}`);
      assert.ok(
        p.p.twin.requests.some((r) => r.role === "main" && r.reply?.kind === "text" && r.reply.text === PLAN_REPLY),
        `the plan stage's prompt reached the twin and got the plan\n${why()}`,
      );

      // The check ran in the workspace the implement stage wrote to.
      const check = eventsOfType<{ stage: string; exit_code?: number }>(events, "stage.completed").find((e) => e.data.stage === "check");
      assert.equal(check?.data.exit_code, 0, why());
      const workspace = workspacePath(events);
      assert.equal(await readFile(join(workspace, FILE), "utf8"), p.content, why());

      // One checkpoint per stage visit; the implement stage's holds the commit with the file.
      const checkpoints = eventsOfType<{ stage: string; visit: number; commit?: string; next?: string }>(events, "checkpoint.saved");
      assert.deepEqual(checkpoints.map((e) => `${e.data.stage}@${e.data.visit}->${e.data.next ?? ""}`), ["start@1->plan", "plan@1->implement", "implement@1->check", "check@1->exit", "exit@1->"], why());
      const commits = eventsOfType<{ sha: string; stage?: string; files: Array<{ path: string }> }>(events, "git.committed");
      assert.deepEqual(commits.map((e) => e.data.stage), ["implement"], `only the implement stage changed files\n${why()}`);
      const commit = commits[0];
      assert.ok(commit?.data.files.some((f) => f.path === FILE), `the commit holds ${FILE}\n${why()}`);
      assert.equal(commit?.stage?.id, "implement", why());
      assert.equal(checkpoints.find((e) => e.data.stage === "implement")?.data.commit, commit?.data.sha, `the implement checkpoint names its commit\n${why()}`);
      assert.equal(execFileSync("git", ["-C", workspace, "show", `${commit?.data.sha ?? ""}:${FILE}`], { encoding: "utf8" }), p.content, why());

      // The log folds cleanly: every stage closed, one terminal event for the one run.started.
      const state = foldRun(events);
      assert.deepEqual(state.warnings, [], why());
      assert.deepEqual(openStages(state.workflow), [], why());
      assert.equal(events.filter((e) => isFinalType(e.type)).length, 1, why());
    });
  }
});
