// Durable append throughput through RunWriter (group commit: a durable write, index
// transaction, hint files, delivery) against raw fs.write + fdatasync of the same bytes in
// the same batches, measured in the same run. Prints figures and ratios; asserts nothing.
//   node bench/store/append-throughput.bench.ts [--events N] [--quick]   (default 200,000 events)
//
// The producer appends bursts of B events and yields to the event loop between bursts (an
// agent's events arrive from async I/O; B = 100 is already far burstier than a real one).
// Group commit then forms batches of whatever arrived during the previous batch's write.
// Each configuration runs ROUNDS times, alternating writer and baseline; medians are reported.
//
// Fairness: the baseline replays the writer's own log file, cut at the writer's own durable
// batch boundaries, as one write and one fdatasync per batch (the raw write+fdatasync),
// to a fresh file in the same directory. The writer opens its log O_DSYNC (one write per
// batch that returns once it is durable: the same work in the kernel, one trip through the
// thread pool instead of two); the same writer on a plain descriptor (write, then fdatasync)
// is shown beside it with its own baseline. The baseline does none of the work that makes a
// batch durable *and visible* (index transaction, hint files), and the writer's time includes
// building each event's data in the producer loop (shown separately): the ratio is a floor.
import fs from "node:fs";
import { nodeLogFileSystem, openStore, type LogFileSystem, type Store } from "@baton/engine/store";
import { fixed, median, percentile, quick, whole } from "../measure.ts";
import { appendTypical, eventCount, scratchBatonDir } from "./store-fixtures.ts";

const events = eventCount(200_000);
const ROUNDS = quick ? 3 : 5;

/** The value at `fraction` of `values` (nearest rank). */
const quantile = (values: number[], fraction: number) => percentile([...values].sort((a, b) => a - b), fraction);
const BURSTS = [100, 1000];

type Round = { writerMs: number; rawMs: number; ratios: number[]; producerMs: number; naiveMs: number; twoCallsMs: number; twoCallsRatios: number[]; bytes: number; batches: number };

/**
 * Byte length of each durable batch, as the file system saw it: with the store's own file
 * system (logs opened O_DSYNC), each write is a durable batch; with `twoCalls`, the bytes
 * written between two fdatasyncs.
 */
type FsyncRecorder = { fileSystem: LogFileSystem; batches: number[]; writes: () => number; syncs: () => number };

function fsyncRecorder(twoCalls = false): FsyncRecorder {
  const batches: number[] = [];
  let pending = 0;
  let writes = 0;
  let syncs = 0;
  const fileSystem: LogFileSystem = {
    synchronousWrites: !twoCalls && nodeLogFileSystem.synchronousWrites === true,
    async write(fd, buffer, position) {
      writes += 1;
      await nodeLogFileSystem.write(fd, buffer, position);
      if (fileSystem.synchronousWrites === true) batches.push(buffer.byteLength);
      else pending += buffer.byteLength;
    },
    async datasync(fd) {
      syncs += 1;
      batches.push(pending);
      pending = 0;
      await nodeLogFileSystem.datasync(fd);
    },
  };
  return { fileSystem, batches, writes: () => writes, syncs: () => syncs };
}

/**
 * A writer's run is cut into this many stretches; each stretch's bytes are replayed by the
 * baseline right after it, so that each ratio compares two timings taken back to back (the
 * shared machine's load moves on the scale of seconds: a whole run's writer and a whole run's
 * replay, seconds apart, were once 0.09 and once 1.15 of each other).
 */
const SEGMENTS = 10;

type PairedRun = { writerMs: number; rawMs: number; ratios: number[]; logPath: string; content: Buffer; batches: number[] };

/**
 * One writer's run of `events` in bursts of `burst`, in SEGMENTS stretches (each ends with a
 * flush: its last batch's pipeline drains, which counts against the writer), each followed by
 * the baseline: the stretch's bytes, at the writer's own durable batch boundaries, as one
 * write and one fdatasync per batch, to a second file at the same offsets.
 */
async function pairedRun(store: Store, recorder: FsyncRecorder, burst: number): Promise<PairedRun> {
  const writer = await store.createRun();
  const logPath = store.eventsPath(writer.runId);
  const rawPath = `${logPath}.raw`;
  const rawFd = fs.openSync(rawPath, "w");
  const logFd = fs.openSync(logPath, "r");
  const ratios: number[] = [];
  const allBatches: number[] = [];
  let writerMs = 0;
  let rawMs = 0;
  let offset = 0;
  try {
    for (let segment = 0; segment < SEGMENTS; segment += 1) {
      recorder.batches.length = 0;
      const writesBefore = recorder.writes();
      const syncsBefore = recorder.syncs();
      const started = performance.now();
      await appendTypical(writer, Math.round(events / SEGMENTS), burst);
      const segmentWriterMs = performance.now() - started;
      const batches = [...recorder.batches];
      const writes = recorder.writes() - writesBefore;
      const syncs = recorder.syncs() - syncsBefore;
      if (writes !== batches.length) throw new Error("the writer made more than one write per durable batch");
      if (syncs !== (recorder.fileSystem.synchronousWrites === true ? 0 : writes)) throw new Error(`the writer made ${syncs} fdatasyncs for ${writes} writes`);
      const length = batches.reduce((sum, each) => sum + each, 0);
      const bytes = Buffer.allocUnsafe(length);
      if (fs.readSync(logFd, bytes, 0, length, offset) !== length) throw new Error("the log is shorter than its batches");
      const rawStarted = performance.now();
      for (let at = 0, index = 0; index < batches.length; index += 1) {
        const size = batches[index] as number;
        await nodeLogFileSystem.write(rawFd, bytes.subarray(at, at + size), offset + at);
        await nodeLogFileSystem.datasync(rawFd);
        at += size;
      }
      const segmentRawMs = performance.now() - rawStarted;
      offset += length;
      writerMs += segmentWriterMs;
      rawMs += segmentRawMs;
      ratios.push(segmentRawMs / segmentWriterMs);
      allBatches.push(...batches);
    }
  } finally {
    fs.closeSync(logFd);
    fs.closeSync(rawFd);
    fs.rmSync(rawPath);
  }
  await writer.close();
  const content = fs.readFileSync(logPath);
  if (offset !== content.byteLength) throw new Error(`the batches cover ${offset} of ${content.byteLength} bytes`);
  return { writerMs, rawMs, ratios, logPath, content, batches: allBatches };
}

async function round(store: Store, recorder: FsyncRecorder, twoCallsStore: Store, twoCallsRecorder: FsyncRecorder, burst: number): Promise<Round> {
  const { writerMs, rawMs, ratios, logPath, content, batches } = await pairedRun(store, recorder, burst);
  // Context: the same writer on the two-call path (a plain descriptor, write then fdatasync), and its own baseline.
  const twoCalls = await pairedRun(twoCallsStore, twoCallsRecorder, burst);
  fs.rmSync(twoCalls.logPath);

  // Context: the producer alone (the same loop building the same data, no append), and a
  // naive JSON-lines writer that serializes each batch, then writes and syncs it, without
  // overlapping the two (which group commit does).
  const idle = await store.createRun();
  const producerStarted = performance.now();
  await appendTypical(idle, events, burst, () => {});
  const producerMs = performance.now() - producerStarted;
  await idle.close();
  const rawPath = `${logPath}.naive`;
  const naiveMs = await naiveWriter(content, batches, rawPath);
  fs.rmSync(rawPath);
  fs.rmSync(logPath);
  return { writerMs, rawMs, ratios, producerMs, naiveMs, twoCallsMs: twoCalls.writerMs, twoCallsRatios: twoCalls.ratios, bytes: content.byteLength, batches: batches.length };
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
  const twoCallsRecorder = fsyncRecorder(true);
  await using twoCallsStore = await openStore(batonDir, { fileSystem: twoCallsRecorder.fileSystem });
  for (const each of [store, twoCallsStore]) {
    const warm = await each.createRun(); // JIT and SQLite pages, not counted
    await appendTypical(warm, 20_000);
    await warm.close();
  }

  console.log(`append throughput: ${whole(events)} events per round, ${ROUNDS} rounds per burst size, medians`);
  console.log("  baseline: the writer's own bytes and durable batches replayed as write + fdatasync, nothing else");
  console.log(`  the writer's log is opened ${recorder.fileSystem.synchronousWrites === true ? "O_DSYNC: one write per batch, no fdatasync call" : "without O_DSYNC: write + fdatasync per batch"}`);
  for (const burst of BURSTS) {
    const rounds: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) rounds.push(await round(store, recorder, twoCallsStore, twoCallsRecorder, burst));
    const writerMs = median(rounds.map((r) => r.writerMs));
    const rawMs = median(rounds.map((r) => r.rawMs));
    const ratios = rounds.flatMap((r) => r.ratios);
    const { bytes, batches } = rounds[0] as Round;
    const rate = (ms: number) => (events / ms) * 1000;
    console.log(`bursts of ${burst}: ${fixed(bytes / events, 0)} bytes/event, ~${whole(batches)} batches of ~${whole(events / batches)} events`);
    console.log(`  RunWriter          ${whole(rate(writerMs)).padStart(10)} events/s  (${fixed(writerMs, 0)} ms, ${fixed(bytes / writerMs / 1000)} MB/s)`);
    console.log(`  raw write+fsync    ${whole(rate(rawMs)).padStart(10)} events/s  (${fixed(rawMs, 0)} ms)`);
    // Each stretch's writer and baseline run back to back: the median of their ratios shakes off the load's swings.
    const spread = (perRound: number[][]) => {
      const values = perRound.flat();
      return `quartiles ${fixed(quantile(values, 0.25))}–${fixed(quantile(values, 0.75))}; per round ${perRound.map((each) => fixed(median(each))).join(", ")}`;
    };
    console.log(`  ratio RunWriter / raw: ${fixed(median(ratios))} (median of ${ratios.length} stretches, each replayed right after it; ${spread(rounds.map((r) => r.ratios))})   (aims: >= 0.5, and >= 100,000 events/s)`);
    const twoCallsRatios = rounds.flatMap((r) => r.twoCallsRatios);
    console.log(`  context: the same writer on a plain descriptor (write, then fdatasync: two trips through the thread pool per batch) ${whole(rate(median(rounds.map((r) => r.twoCallsMs))))} events/s, ratio to its own baseline ${fixed(median(twoCallsRatios))} (${spread(rounds.map((r) => r.twoCallsRatios))})`);
    const producerMs = median(rounds.map((r) => r.producerMs));
    const naiveMs = median(rounds.map((r) => r.naiveMs));
    console.log(`  context: the producer loop alone ${fixed(producerMs, 0)} ms (counted in RunWriter's time); a naive loop (stringify, write, fsync, no overlap) ${whole(rate(naiveMs))} events/s`);
  }
} finally {
  await cleanup();
}
