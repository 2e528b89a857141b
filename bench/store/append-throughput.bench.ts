// Durable append throughput through RunWriter (group commit: write, fdatasync, index
// transaction, hint files, delivery) against raw fs.write + fdatasync of the same bytes in
// the same batches, measured in the same run. Prints figures and ratios; asserts nothing.
//   node bench/store/append-throughput.bench.ts [--events N] [--quick]   (default 200,000 events)
//
// The producer appends bursts of B events and yields to the event loop between bursts (an
// agent's events arrive from async I/O; B = 100 is already far burstier than a real one).
// Group commit then forms batches of whatever arrived during the previous fsync. Each
// configuration runs ROUNDS times, alternating writer and baseline; medians are reported.
//
// Fairness: the baseline replays the writer's own log file, cut at the writer's own fsync
// boundaries, so it writes the same bytes with the same number of write and fdatasync calls,
// to a fresh file in the same directory. It does none of the work that makes a batch
// durable *and visible* (index transaction, hint files), and the writer's time includes
// building each event's data in the producer loop (shown separately): the ratio is a floor.
import fs from "node:fs";
import { nodeLogFileSystem, openStore, type LogFileSystem, type Store } from "@baton/engine/store";
import { fixed, median, quick, whole } from "../measure.ts";
import { appendTypical, eventCount, scratchBatonDir } from "./store-fixtures.ts";

const events = eventCount(200_000);
const ROUNDS = quick ? 3 : 5;
const BURSTS = [100, 1000];

type Round = { writerMs: number; rawMs: number; producerMs: number; naiveMs: number; bytes: number; batches: number };

/** Byte length of each durable batch, as the file system saw it: the bytes written between two fdatasyncs. */
type FsyncRecorder = { fileSystem: LogFileSystem; batches: number[]; writes: () => number };

function fsyncRecorder(): FsyncRecorder {
  const batches: number[] = [];
  let pending = 0;
  let writes = 0;
  const fileSystem: LogFileSystem = {
    async write(fd, buffer, position) {
      pending += buffer.byteLength;
      writes += 1;
      await nodeLogFileSystem.write(fd, buffer, position);
    },
    async datasync(fd) {
      batches.push(pending);
      pending = 0;
      await nodeLogFileSystem.datasync(fd);
    },
  };
  return { fileSystem, batches, writes: () => writes };
}

async function round(store: Store, recorder: FsyncRecorder, burst: number): Promise<Round> {
  recorder.batches.length = 0;
  const writesBefore = recorder.writes();
  const writer = await store.createRun();
  const started = performance.now();
  await appendTypical(writer, events, burst);
  const writerMs = performance.now() - started;
  await writer.close();
  const batches = [...recorder.batches];
  if (recorder.writes() - writesBefore !== batches.length) throw new Error("the writer made more than one write per fdatasync");
  const logPath = store.eventsPath(writer.runId);
  const content = fs.readFileSync(logPath);

  // Baseline: the same bytes, the same batch boundaries, one write and one fdatasync per batch.
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
  if (offset !== content.byteLength) throw new Error(`the batches cover ${offset} of ${content.byteLength} bytes`);

  // Context: the producer alone (the same loop building the same data, no append), and a
  // naive JSON-lines writer that serializes each batch, then writes and syncs it, without
  // overlapping the two (which group commit does).
  const idle = await store.createRun();
  const producerStarted = performance.now();
  await appendTypical(idle, events, burst, () => {});
  const producerMs = performance.now() - producerStarted;
  await idle.close();
  const naiveMs = await naiveWriter(content, batches, rawPath);
  fs.rmSync(rawPath);
  fs.rmSync(logPath);
  return { writerMs, rawMs, producerMs, naiveMs, bytes: content.byteLength, batches: batches.length };
}

async function naiveWriter(content: Buffer, batches: readonly number[], file: string): Promise<number> {
  const envelopes = content.toString("utf8").split("\n").slice(0, -1).map((line) => JSON.parse(line) as unknown);
  const fd = fs.openSync(file, "w");
  const started = performance.now();
  let next = 0;
  let offset = 0;
  for (const length of batches) {
    const lines: string[] = [];
    for (let size = 0; size < length; next += 1) {
      const line = `${JSON.stringify(envelopes[next])}\n`;
      lines.push(line);
      size += Buffer.byteLength(line);
    }
    const buffer = Buffer.from(lines.join(""), "utf8");
    await nodeLogFileSystem.write(fd, buffer, offset);
    await nodeLogFileSystem.datasync(fd);
    offset += buffer.byteLength;
  }
  const ms = performance.now() - started;
  fs.closeSync(fd);
  return ms;
}

const { batonDir, cleanup } = await scratchBatonDir();
try {
  const recorder = fsyncRecorder();
  await using store = await openStore(batonDir, { fileSystem: recorder.fileSystem });
  const warm = await store.createRun(); // JIT and SQLite pages, not counted
  await appendTypical(warm, 20_000);
  await warm.close();

  console.log(`append throughput: ${whole(events)} events per round, ${ROUNDS} rounds per burst size, medians`);
  console.log("  baseline: the writer's own bytes and fsync batches replayed as write + fdatasync, nothing else");
  for (const burst of BURSTS) {
    const rounds: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) rounds.push(await round(store, recorder, burst));
    const writerMs = median(rounds.map((r) => r.writerMs));
    const rawMs = median(rounds.map((r) => r.rawMs));
    const ratios = rounds.map((r) => r.rawMs / r.writerMs);
    const { bytes, batches } = rounds[0] as Round;
    const rate = (ms: number) => (events / ms) * 1000;
    console.log(`bursts of ${burst}: ${fixed(bytes / events, 0)} bytes/event, ~${whole(batches)} batches of ~${whole(events / batches)} events (one write + one fdatasync each)`);
    console.log(`  RunWriter          ${whole(rate(writerMs)).padStart(10)} events/s  (${fixed(writerMs, 0)} ms, ${fixed(bytes / writerMs / 1000)} MB/s)`);
    console.log(`  raw write+fsync    ${whole(rate(rawMs)).padStart(10)} events/s  (${fixed(rawMs, 0)} ms)`);
    // Each round's writer and baseline run back to back: the median of their ratios shakes off more noise than a ratio of medians.
    console.log(`  ratio RunWriter / raw: ${fixed(median(ratios))} (median of rounds: ${ratios.map((r) => fixed(r)).join(", ")})   (aims: >= 0.5, and >= 100,000 events/s)`);
    const producerMs = median(rounds.map((r) => r.producerMs));
    const naiveMs = median(rounds.map((r) => r.naiveMs));
    console.log(`  context: the producer loop alone ${fixed(producerMs, 0)} ms (counted in RunWriter's time); a naive loop (stringify, write, fsync, no overlap) ${whole(rate(naiveMs))} events/s`);
  }
} finally {
  await cleanup();
}
