// Fixtures of the store benchmarks: scratch stores, typical events, finished runs.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { RunWriter, Store } from "@baton/engine/store";
import { sizeArg } from "../measure.ts";

/**
 * Event count of a benchmark: `--events N` or `BATON_BENCH_EVENTS=N`, else the default (the
 * issue's size), or `quickCount` under `--quick`.
 * A quick run: `BATON_BENCH_EVENTS=20000 node bench/store/<name>.bench.ts`.
 */
export function eventCount(fallback: number, quickCount = Math.min(fallback, 50_000)): number {
  return sizeArg("events", "BATON_BENCH_EVENTS", fallback, quickCount);
}

/** A scratch `.baton` directory (in a scratch folder) and its removal. */
export async function scratchBatonDir(): Promise<{ root: string; batonDir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "baton-bench-"));
  const batonDir = path.join(root, ".baton");
  await mkdir(batonDir);
  return { root, batonDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The data of a typical event: a tool call's completion, about 300 bytes once enveloped. */
export function typicalData(index: number): Record<string, unknown> {
  return {
    session: "ses_01JD7Q2W3E4R5T6Y",
    call: `c_${(index % 0xffffff).toString(16).padStart(12, "0")}`,
    tool: "write",
    status: "completed",
    is_error: false,
    duration_ms: 41,
    output_chars: 1234,
    preview: "wrote 14 lines to src/components/button.tsx; tests pass (3 files, 12 cases)",
  };
}

/**
 * Appends `count` events in bursts of `burst`, yielding to the event loop between bursts so
 * that group commit forms batches. `append` defaults to the writer's; the append benchmark
 * passes a no-op to time the producer alone.
 */
export async function appendTypical(writer: RunWriter, count: number, burst = 1000, append = (data: Record<string, unknown>) => void writer.append("tool.completed", data)): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    append(typicalData(index));
    if (index % burst === burst - 1) {
      // Bounded backlog: a producer far ahead of the disk waits for it.
      if (writer.lastSeq - writer.committedSeq > 50 * burst) await writer.flush();
      else await yieldToLoop();
    }
  }
  await writer.flush();
}

/** A finished run of `count` events (run.created … run.completed). */
export async function finishedRun(store: Store, count: number): Promise<string> {
  const writer = await store.createRun({ task: "bench", agent: "bench", repo: { root: "/", dirty: false } });
  await appendTypical(writer, count - 2, 10_000);
  writer.append("run.completed", { status: "succeeded", usage: {}, active_ms: 1, duration_ms: 1 });
  await writer.close();
  return writer.runId;
}
