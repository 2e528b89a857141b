// Durable append throughput through RunWriter (group commit: write, fdatasync, index
// transaction, delivery) against raw fs.write + fdatasync of the same bytes in the same
// batches, measured in the same run. Prints figures and ratios; asserts nothing.
//   node bench/store/append-throughput.bench.ts [--events N]   (default 200,000 events)
//
// The producer appends bursts of B events and yields to the event loop between bursts (an
// agent's events arrive from async I/O; B = 100 is already far burstier than a real one).
// Group commit then forms batches of whatever arrived during the previous fsync. Each
// configuration runs ROUNDS times, alternating writer and baseline; medians are reported.
import fs from "node:fs";
import { nodeLogFileSystem, type LogFileSystem } from "../../packages/engine/src/store/log-file-system.ts";
import { openStore, type Store } from "../../packages/engine/src/store/index.ts";
import { appendTypical, eventCount, fixed, scratchBatonDir, whole } from "./bench-support.ts";

const events = eventCount(200_000);
const ROUNDS = 3;
const BURSTS = [100, 1000];

type Round = { writerMs: number; rawMs: number; jsonMs: number; bytes: number; batches: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function round(store: Store, batches: number[], burst: number): Promise<Round> {
  batches.length = 0;
  const writer = await store.createRun();
  const started = performance.now();
  await appendTypical(writer, events, burst);
  const writerMs = performance.now() - started;
  await writer.close();
  const logPath = store.eventsPath(writer.runId);
  const content = fs.readFileSync(logPath);

  // Baseline: the same bytes, the same batch boundaries, the same write and fdatasync calls.
  const rawPath = `${logPath}.raw`;
  const fd = fs.openSync(rawPath, "w");
  const rawStarted = performance.now();
  let offset = 0;
  for (const length of batches) {
    await nodeLogFileSystem.write(fd, content.subarray(offset, offset + length), offset);
    await nodeLogFileSystem.datasync(fd);
    offset += length;
  }
  const rawMs = performance.now() - rawStarted;
  fs.closeSync(fd);

  // For context: a naive JSON-lines writer that serializes each batch, then writes and
  // syncs it, without overlapping the two (which group commit does).
  const envelopes = content.toString("utf8").split("\n").slice(0, -1).map((line) => JSON.parse(line) as unknown);
  const jsonFd = fs.openSync(rawPath, "w");
  const jsonStarted = performance.now();
  let next = 0;
  offset = 0;
  for (const length of batches) {
    const lines: string[] = [];
    for (let size = 0; size < length; next += 1) {
      const line = `${JSON.stringify(envelopes[next])}\n`;
      lines.push(line);
      size += Buffer.byteLength(line);
    }
    const buffer = Buffer.from(lines.join(""), "utf8");
    await nodeLogFileSystem.write(jsonFd, buffer, offset);
    await nodeLogFileSystem.datasync(jsonFd);
    offset += buffer.byteLength;
  }
  const jsonMs = performance.now() - jsonStarted;
  fs.closeSync(jsonFd);
  fs.rmSync(rawPath);
  fs.rmSync(logPath);
  return { writerMs, rawMs, jsonMs, bytes: content.byteLength, batches: batches.length };
}

const { batonDir, cleanup } = await scratchBatonDir();
try {
  // The writer's batches, as the file system saw them: replayed by the baseline.
  const batches: number[] = [];
  const recording: LogFileSystem = {
    async write(fd, buffer, position) {
      batches.push(buffer.byteLength);
      await nodeLogFileSystem.write(fd, buffer, position);
    },
    datasync: nodeLogFileSystem.datasync,
  };
  await using store = await openStore(batonDir, { fileSystem: recording });
  const warm = await store.createRun(); // JIT and SQLite pages, not counted
  await appendTypical(warm, 20_000);
  await warm.close();

  console.log(`append throughput: ${whole(events)} events per round, ${ROUNDS} rounds per burst size, medians`);
  for (const burst of BURSTS) {
    const rounds: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) rounds.push(await round(store, batches, burst));
    const writerMs = median(rounds.map((r) => r.writerMs));
    const rawMs = median(rounds.map((r) => r.rawMs));
    const jsonMs = median(rounds.map((r) => r.jsonMs));
    const { bytes, batches: count } = rounds[0]!;
    const writerRate = (events / writerMs) * 1000;
    const rawRate = (events / rawMs) * 1000;
    console.log(`bursts of ${burst}: ${fixed(bytes / events, 0)} bytes/event, ~${whole(count)} batches (mean ${whole(events / count)} events)`);
    console.log(`  RunWriter          ${whole(writerRate).padStart(10)} events/s  (${fixed(writerMs, 0)} ms, ${fixed(bytes / writerMs / 1000)} MB/s)`);
    console.log(`  raw write+fsync    ${whole(rawRate).padStart(10)} events/s  (${fixed(rawMs, 0)} ms)`);
    console.log(`  ratio RunWriter / raw: ${fixed(writerRate / rawRate)}   (aims: >= 0.5, and >= 100,000 events/s)`);
    const jsonRate = (events / jsonMs) * 1000;
    console.log(`  context: a naive loop (stringify, write, fsync, no overlap) ${whole(jsonRate)} events/s; RunWriter / that: ${fixed(writerRate / jsonRate)}`);
  }
} finally {
  await cleanup();
}
