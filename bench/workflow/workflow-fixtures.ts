// Fixtures of the workflow benchmarks: scratch git repositories, and a workflow run request for
// the engine API (`executeWorkflow`) with everything an agent stage would need stubbed out.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { definitionRouter, executeWorkflow, loadedWorkflow, openStore, Redactor, type RunLogWriter, type WorkflowRunRequest, type WorkflowRunResult } from "@baton/engine";
import type { WorkflowDefinition } from "@baton/workflow";

/** A scratch folder and its removal. */
export async function scratchDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `baton-bench-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A git repository with an identity in its own config, one empty commit and an empty `.baton/` (ignored). */
export async function gitRepo(dir: string): Promise<string> {
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  execFileSync("git", ["-C", dir, "config", "user.name", "Baton Bench"]);
  execFileSync("git", ["-C", dir, "config", "user.email", "bench@baton.invalid"]);
  execFileSync("git", ["-C", dir, "commit", "-q", "--allow-empty", "-m", "Initial commit"]);
  await mkdir(path.join(dir, ".baton"));
  execFileSync("sh", ["-c", "echo .baton/ >> .git/info/exclude"], { cwd: dir });
  return dir;
}

/** The environment command stages get in the benchmarks (and the baselines' shells). */
export function commandEnv(): Record<string, string> {
  return { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: os.homedir(), LANG: "C" };
}

/**
 * Runs `definition` through `executeWorkflow` as a new run in the store at `batonDir`, working
 * in place in `repo` (no worktree, no checkpoint commits). It has no agent: a stage that
 * needs one fails the run. `onAppend` sees each event as the engine appends it (before it is
 * durable), with `performance.now()`.
 */
export async function runWorkflowInPlace(
  batonDir: string,
  repo: string,
  definition: WorkflowDefinition,
  task: string,
  onAppend: (type: string, data: Record<string, unknown>, at: number) => void = () => {},
): Promise<WorkflowRunResult> {
  await using store = await openStore(batonDir);
  const created = await store.createRun();
  const writer: RunLogWriter = {
    runId: created.runId,
    number: created.number,
    dir: created.dir,
    get lastSeq() {
      return created.lastSeq;
    },
    failure: created.failure,
    append: (type, data, stage) => {
      onAppend(type, data, performance.now());
      return created.append(type, data, stage);
    },
    publish: (type, data, stage) => created.publish(type, data, stage),
    close: () => created.close(),
    readLog: () => created.readLog(),
  };
  const noAgent = (): never => {
    throw new Error("the workflow benchmarks run no agent");
  };
  const request: WorkflowRunRequest = {
    task,
    agent: { agentName: "none", command: { command: "false", args: [], env: {} } },
    resolveAgent: async () => noAgent(),
    settings: { rules: [], cancelGraceMs: 1_000, redactor: new Redactor([]), now: () => new Date(), version: "bench" },
    router: definitionRouter(definition, { task, baseDir: repo }),
    workflow: await loadedWorkflow(definition, repo),
    repo: { root: repo, dirty: false },
    autoApprove: true,
    commandEnv: commandEnv(),
    signal: new AbortController().signal,
    start: { kind: "new", workspace: { kind: "in_place", root: repo } },
  };
  // Awaited here: the store closes when this function returns.
  return await executeWorkflow(writer, request);
}
