// The built-in pipeline's subtasks built in parallel: `baton run TASK --workflow pipeline` (the
// CLI as a child, fresh git repository, the fake agent scripted per stage and per subtask) on a
// plan of N independent subtasks whose agents each take a fixed sleep and write a file of their
// own, with `[pipeline] max_parallel = P` against the same run with `max_parallel = 1` (the
// subtasks one after another), the sides alternating. Figures per side, medians over rounds:
//   - build: the foreach stage's wall time (`parallel.started` → `parallel.completed`), each
//     subtask in its own worktree (made, set up, an agent process, its commit);
//   - integration: the fan-in's wall time (every subtask's branch merged into the task branch,
//     one at a time) and its time per subtask;
//   - the whole run, spawn to exit (assess, spec, plan, build, integrate, validate, review, merge).
// The aim: build wall of P-wide ≤ 0.35 × sequential. Prints figures; asserts nothing about timing.
//   node bench/delivery/pipeline.bench.ts [--subtasks N] [--parallel P] [--sleep-ms MS] [--rounds R] [--quick]
//   (default 8 subtasks, P = 4, 2000 ms, 3 rounds; quick: 8, 4, 1000 ms, 1 round)
import { execFileSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { cliEntry, fixed, median, sizeArg, whole } from "../measure.ts";
import { gitRepo, scratchDir } from "../workflow/workflow-fixtures.ts";

const subtasks = sizeArg("subtasks", "BATON_BENCH_SUBTASKS", 8);
const parallel = sizeArg("parallel", "BATON_BENCH_PARALLEL", 4);
const sleepMs = sizeArg("sleep-ms", "BATON_BENCH_SLEEP_MS", 2000, 1000);
const rounds = sizeArg("rounds", "BATON_BENCH_ROUNDS", 3, 1);
const AIM = 0.35;

type Figures = { buildMs: number; integrateMs: number; totalMs: number };

function stages(): Record<string, unknown> {
  const list = { subtasks: Array.from({ length: subtasks }, (_, index) => ({ id: `part-${index}`, title: `Part ${index}`, prompt: `Write part-${index}.txt` })) };
  const script: Record<string, unknown> = {
    assess: [{ say: '{"preferred_label": "large"}' }],
    spec: [{ write: { path: ".pipeline/spec.md", content: "# Spec\n" } }],
    plan: [{ write: { path: ".pipeline/plan.md", content: "# Plan\n" } }, { write: { path: ".pipeline/subtasks.json", content: JSON.stringify(list) } }],
    review: [{ say: "Fine." }],
  };
  for (let index = 0; index < subtasks; index += 1) script[`build_subtask/item-${index}`] = [{ sleep: sleepMs }, { write: { path: `part-${index}.txt`, content: `part ${index}\n` } }];
  return { stages: script };
}

async function oneRun(maxParallel: number): Promise<Figures> {
  const { dir, cleanup } = await scratchDir("pipeline");
  try {
    const repo = await gitRepo(dir);
    const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, LANG: "C", BATON_TIMEOUT: "30m", GIT_CONFIG_NOSYSTEM: "1" };
    execFileSync(process.execPath, [cliEntry, "init"], { cwd: repo, env, stdio: "ignore" });
    await writeFile(path.join(repo, ".baton", "config.toml"), `[pipeline]\nmax_parallel = ${maxParallel}\n`);
    const script = path.join(repo, ".baton", "stages.json");
    await writeFile(script, JSON.stringify(stages()));
    const started = performance.now();
    let failure: unknown;
    try {
      execFileSync(process.execPath, [cliEntry, "run", "Build every part", "--workflow", "pipeline", "--script", script, "--yes", "--json"], { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      failure = error;
    }
    const totalMs = performance.now() - started;
    const runs = path.join(repo, ".baton", "runs");
    const [runId] = await readdir(runs);
    const events = (await readFile(path.join(runs, runId ?? "", "events.jsonl"), "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string; at: string; data: Record<string, unknown>; stage?: { id: string } });
    if (failure !== undefined) throw new Error(`the pipeline run failed (max_parallel ${maxParallel}): ${JSON.stringify(events.at(-1)?.data)}`);
    const at = (predicate: (event: (typeof events)[number]) => boolean) => Date.parse(events.find(predicate)?.at ?? "");
    const buildMs = at((e) => e.type === "parallel.completed") - at((e) => e.type === "parallel.started");
    const integrateMs = at((e) => e.type === "stage.completed" && e.data["stage"] === "integrate") - at((e) => e.type === "stage.started" && e.data["stage"] === "integrate");
    const merged = events.filter((e) => e.type === "subtask.integrated" && typeof e.data["commit"] === "string").length;
    if (merged !== subtasks) throw new Error(`${merged} of ${subtasks} subtasks integrated with max_parallel ${maxParallel}`);
    if (!events.some((e) => e.type === "git.merged")) throw new Error("the pipeline did not merge into main");
    return { buildMs, integrateMs, totalMs };
  } finally {
    await cleanup();
  }
}

console.log(`pipeline: ${subtasks} subtasks, fake agent sleeping ${sleepMs} ms each, max_parallel ${parallel} vs 1 (sequential), ${rounds} round(s), sides alternating`);
const wide: Figures[] = [];
const narrow: Figures[] = [];
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? [parallel, 1] : [1, parallel];
  for (const maxParallel of order) {
    const figures = await oneRun(maxParallel);
    (maxParallel === 1 ? narrow : wide).push(figures);
    console.log(`  round ${round + 1}, max_parallel ${maxParallel}: build ${whole(figures.buildMs)} ms, integrate ${whole(figures.integrateMs)} ms (${fixed(figures.integrateMs / subtasks, 1)} ms a subtask), whole run ${whole(figures.totalMs)} ms`);
  }
}
const med = (list: Figures[], key: keyof Figures) => median(list.map((figures) => figures[key]));
const ratio = med(wide, "buildMs") / med(narrow, "buildMs");
console.log(`max_parallel ${parallel}: build ${whole(med(wide, "buildMs"))} ms · integration ${fixed(med(wide, "integrateMs") / subtasks, 1)} ms a subtask · whole run ${whole(med(wide, "totalMs"))} ms`);
console.log(`sequential:     build ${whole(med(narrow, "buildMs"))} ms · integration ${fixed(med(narrow, "integrateMs") / subtasks, 1)} ms a subtask · whole run ${whole(med(narrow, "totalMs"))} ms`);
console.log(`build wall ratio ${fixed(ratio, 3)} of sequential (aim ≤ ${AIM}; the floor of ${parallel}-wide is ${fixed(1 / parallel, 3)}) · whole run ${fixed(med(wide, "totalMs") / med(narrow, "totalMs"), 3)}`);
