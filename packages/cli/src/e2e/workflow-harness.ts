import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { foldRun, isFinalType, openStages, type Envelope } from "@baton/protocol/core";
import { makeRepo } from "./cli-harness.ts";

/**
 * A repository with workflow `name` in `.baton/workflows/` and a fake-agent script holding one
 * script per stage (`{"stages": {...}}`), ignored by git like everything in `.baton/`.
 */
export async function workflowProject(name: string, workflow: string, stages: Record<string, unknown>, prefix = "cli-wf-"): Promise<{ repo: string; script: string }> {
  const repo = await makeRepo(prefix);
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", `${name}.dot`), workflow);
  const script = join(repo, ".baton", "stages.json");
  await writeFile(script, JSON.stringify({ stages }));
  return { repo, script };
}

/**
 * What every workflow log must hold: it folds without a warning (a stage closed twice warns),
 * every stage.started is closed, one terminal event per run.started, and every branch of every
 * fan-out ended.
 */
export function assertWellClosed(events: readonly Envelope[]): void {
  const state = foldRun(events);
  assert.deepEqual(state.warnings, [], "the log folds without a warning");
  assert.deepEqual(openStages(state.workflow), [], "every stage.started is closed");
  const started = events.filter((e) => e.type === "run.started").length;
  const terminal = events.filter((e) => e.type === "run.paused" || isFinalType(e.type)).length;
  assert.equal(terminal, started, "one terminal event per run.started");
  for (const fanOut of state.workflow.fan_outs) {
    for (const branch of fanOut.branches) assert.ok(branch.status !== "pending" && branch.status !== "running", `branch ${branch.branch} of ${fanOut.stage} ended`);
  }
}
