// Runs every benchmark in sequence, each in its own process, with its default sizes:
//   npm run bench                 (the issue's sizes; several minutes)
//   npm run bench -- --quick      (small sizes, for a smoke run)
// Arguments are passed on to each benchmark. A benchmark never fails on timing; one that
// crashes is reported, the others still run, and the exit code is then 1.
import { spawn } from "node:child_process";
import path from "node:path";
import { fixed, repoRoot } from "./measure.ts";

const BENCHMARKS = [
  "bench/store/append-throughput.bench.ts",
  "bench/store/durable-write.bench.ts",
  "bench/store/follow-latency.bench.ts",
  "bench/store/read-tail.bench.ts",
  "bench/store/follow-memory.bench.ts",
  "bench/harness-overhead.bench.ts",
  "bench/serve/sse-fanout.bench.ts",
  "bench/serve/overview.bench.ts",
  "bench/otel/export.bench.ts",
  "bench/tui/run-view.bench.ts",
  "bench/transcript/render.bench.ts",
  "bench/workflow/stage-transition.bench.ts",
  "bench/workflow/checkpoint-commit.bench.ts",
  "bench/workflow/resume-startup.bench.ts",
  "bench/delivery/pipeline.bench.ts",
  "bench/proxy/proxy-latency.bench.ts",
  "bench/agents/startup.bench.ts",
];

const passOn = process.argv.slice(2);
const crashed: string[] = [];
for (const bench of BENCHMARKS) {
  console.log(`\n== ${bench} ${passOn.join(" ")}`);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(repoRoot, bench), ...passOn], { stdio: "inherit", cwd: repoRoot });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  console.log(`   (${fixed((performance.now() - started) / 1000, 1)} s${code === 0 ? "" : `, exit ${code}`})`);
  if (code !== 0) crashed.push(bench);
}
if (crashed.length > 0) {
  console.error(`\ncrashed: ${crashed.join(", ")}`);
  process.exitCode = 1;
}
