import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { RunWriter, Store } from "../../packages/engine/src/store/index.ts";

/**
 * Event count of a benchmark: `--events N` or `BATON_BENCH_EVENTS=N`, else the default (the
 * issue's size). A quick run: `BATON_BENCH_EVENTS=20000 node bench/store/<name>.bench.ts`.
 */
export function eventCount(fallback: number): number {
  const flag = process.argv.findIndex((arg) => arg === "--events");
  const text = flag === -1 ? process.env["BATON_BENCH_EVENTS"] : process.argv[flag + 1];
  const value = Number(text ?? fallback);
  if (!Number.isSafeInteger(value) || value < 10) throw new Error(`bad event count ${text}`);
  return value;
}

/** A scratch `.baton` directory and its removal. */
export async function scratchBatonDir(): Promise<{ batonDir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "baton-bench-"));
  const batonDir = path.join(root, ".baton");
  await mkdir(batonDir);
  return { batonDir, cleanup: () => rm(root, { recursive: true, force: true }) };
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

/** Appends `count` events in steps, yielding to the event loop so group commit forms batches. */
export async function appendTypical(writer: RunWriter, count: number, step = 1000): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    writer.append("tool.completed", typicalData(index));
    if (index % step === step - 1) {
      // Bounded backlog: a producer far ahead of the disk waits for it.
      if (writer.lastSeq - writer.committedSeq > 50 * step) await writer.flush();
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

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

export function fixed(value: number, digits = 2): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function whole(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
