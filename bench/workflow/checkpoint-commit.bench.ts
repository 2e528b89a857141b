// Checkpoint commit: a stage visit's commit (`commitStage`, as the walk makes it after every
// visit: `git add -A`, the change's file list, the commit with the stage in its message, the new
// sha, `git.committed` in the log) on a repository of F tracked files of which C changed, against
// a plain `git add -A` then `git commit -q -m …` (two git processes, no shell) of the same kind
// of change on the same repository. The two sides alternate, each committing a change of its
// own (C files rewritten). Prints the medians and the ratio; asserts nothing.
//   node bench/workflow/checkpoint-commit.bench.ts [--files F] [--changed C] [--rounds R] [--quick]
//   (default 1,000 files, 10 changed, 20 rounds; quick 1,000 / 10 / 6)
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { openStore, Redactor } from "@baton/engine";
import { RunSink } from "../../packages/engine/src/run/run-sink.ts";
import { commitStage } from "../../packages/engine/src/workflow/commit-stage.ts";
import { fixed, median, sizeArg, whole } from "../measure.ts";
import { gitRepo, scratchDir } from "./workflow-fixtures.ts";

const files = sizeArg("files", "BATON_BENCH_FILES", 1_000);
const changed = sizeArg("changed", "BATON_BENCH_CHANGED", 10);
const rounds = sizeArg("rounds", "BATON_BENCH_ROUNDS", 20, 6);
const AIM_MS = 200;
const run = promisify(execFile);

/** Tracked files in folders of 50, about 1 KiB each, as a small source tree has them. */
const fileAt = (repo: string, index: number) => path.join(repo, "src", `dir${Math.floor(index / 50)}`, `file${index}.ts`);
const body = (index: number, version: number) => `// file ${index}, version ${version}\n${"export const value = 1;\n".repeat(40)}`;

async function populate(repo: string): Promise<void> {
  for (let index = 0; index < files; index += 1) {
    await mkdir(path.dirname(fileAt(repo, index)), { recursive: true });
    await writeFile(fileAt(repo, index), body(index, 0));
  }
  await run("git", ["-C", repo, "add", "-A"]);
  await run("git", ["-C", repo, "commit", "-q", "-m", `${files} files`]);
}

/** Rewrites `changed` files spread over the tree: a change of its own for each round and side. */
async function change(repo: string, version: number): Promise<void> {
  const stride = Math.max(1, Math.floor(files / changed));
  for (let k = 0; k < changed; k += 1) {
    const index = (k * stride + version) % files;
    await writeFile(fileAt(repo, index), body(index, version));
  }
}

async function plainCommit(repo: string, version: number): Promise<number> {
  const began = performance.now();
  await run("git", ["add", "-A"], { cwd: repo });
  await run("git", ["commit", "-q", "-m", `change ${version}`], { cwd: repo });
  return performance.now() - began;
}

async function batonCommit(sink: RunSink, repo: string, version: number, runId: string): Promise<number> {
  const workspace = { kind: "worktree" as const, path: repo, root: repo, branch: "main", base: "main", baseBranch: "main" };
  const began = performance.now();
  const sha = await commitStage(sink.inStage({ id: "implement", visit: version }), workspace, { runId, number: 1, task: "implement the change" }, undefined);
  const ms = performance.now() - began;
  if (sha === undefined) throw new Error("commitStage found nothing to commit");
  return ms;
}

const scratch = await scratchDir("commit");
try {
  const repo = await gitRepo(path.join(scratch.dir, "repo"));
  await populate(repo);
  await using store = await openStore(path.join(repo, ".baton"));
  const writer = await store.createRun();
  const sink = new RunSink(writer, new Redactor([]));
  const baton: number[] = [];
  const plain: number[] = [];
  let version = 0;
  // One of each first, not counted: git's index and the file cache warm up.
  await change(repo, ++version);
  await batonCommit(sink, repo, version, writer.runId);
  await change(repo, ++version);
  await plainCommit(repo, version);
  for (let round = 0; round < rounds; round += 1) {
    const sides = round % 2 === 0 ? (["baton", "plain"] as const) : (["plain", "baton"] as const);
    for (const side of sides) {
      await change(repo, ++version);
      if (side === "baton") baton.push(await batonCommit(sink, repo, version, writer.runId));
      else plain.push(await plainCommit(repo, version));
    }
  }
  writer.append("run.completed", { status: "succeeded", usage: {}, active_ms: 1, duration_ms: 1 });
  await writer.close();
  const batonMs = median(baton);
  const plainMs = median(plain);
  // Each round's two commits ran back to back: their difference drifts less with the machine's load.
  const differences = baton.map((ms, index) => ms - (plain[index] as number));
  console.log(`checkpoint commit: ${whole(files)} tracked files, ${whole(changed)} changed per commit; ${rounds} commits a side, alternating, medians (min-max)`);
  console.log(`  commitStage (add, file list, commit, sha, git.committed)  ${fixed(batonMs, 1).padStart(6)} ms  (${fixed(Math.min(...baton), 1)}-${fixed(Math.max(...baton), 1)})`);
  console.log(`  git add -A && git commit -q -m ...                        ${fixed(plainMs, 1).padStart(6)} ms  (${fixed(Math.min(...plain), 1)}-${fixed(Math.max(...plain), 1)})`);
  console.log(`  ratio commitStage / plain git: ${fixed(batonMs / plainMs)}; difference ${fixed(batonMs - plainMs, 1)} ms of medians, ${fixed(median(differences), 1)} ms median per round   (aim: commitStage <= ${AIM_MS} ms)`);
} finally {
  await scratch.cleanup();
}
