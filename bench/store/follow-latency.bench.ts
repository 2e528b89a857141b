// Cross-process follow latency: a writer in a child process appends events stamped with
// their send time; this process follows the run (another process's store, fs.watch wake-ups,
// reads up to the committed frontier) and measures send -> delivery. Baseline, same run: the
// child writes and fdatasyncs each line itself and this process watches the file and reads
// it directly (no index, no frontier); and the durable floor, which delivers only what is
// durable, the least a follower of durable events can do (the aim's baseline, ADR 0023: the raw
// floor's reader sees each line before its fdatasync, and its writer stamps a line only once
// the previous one is synced, so no raw latency holds a wait for the disk); and each fdatasync
// of the raw writer, timed. The durable floor writes as the store does (O_DSYNC, lines that
// arrive during a write go out in the next), so neither side has a disk call the other has
// not. Each round does all three;
// the median over rounds of each percentile is reported, with every round's figures. Prints p50/p99 and ratios; asserts nothing.
//   node bench/store/follow-latency.bench.ts [--events N] [--quick]   (default 2,000 events, one per 2 ms)
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { LineSplitter } from "@baton/protocol";
import { openStore } from "@baton/engine/store";
import { fixed, median, percentile, quick } from "../measure.ts";
import { eventCount, scratchBatonDir } from "./store-fixtures.ts";

const events = eventCount(2_000, 500);
const INTERVAL_MS = 2;
const ROUNDS = quick ? 1 : 3;
const writerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "latency-writer.ts");
const stamp = () => performance.timeOrigin + performance.now();

function startWriter(mode: "store" | "raw" | "durable", target: string) {
  const child = spawn(process.execPath, [writerScript, mode, target, String(events), String(INTERVAL_MS)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    ready: async () => ((await lines.next()).value as string).split(" ")[1] as string,
    next: async () => (await lines.next()).value as string,
    go: () => child.stdin.write("go\n"),
    exited,
  };
}

async function followStore(batonDir: string): Promise<number[]> {
  const writer = startWriter("store", batonDir);
  const runId = await writer.ready();
  await using store = await openStore(batonDir);
  const latencies: number[] = [];
  const following = (async () => {
    for await (const event of store.followRun(runId)) {
      const sent = event.data["sent_at"];
      if (typeof sent === "number") latencies.push(stamp() - sent);
    }
  })();
  writer.go();
  await following;
  await writer.exited;
  return latencies;
}

async function followRaw(file: string): Promise<{ latencies: number[]; syncs: number[] }> {
  const writer = startWriter("raw", file);
  await writer.ready();
  const latencies: number[] = [];
  const fd = fs.openSync(file, "r");
  const splitter = new LineSplitter();
  const buffer = Buffer.allocUnsafe(1 << 16);
  let offset = 0;
  await new Promise<void>((resolve) => {
    const drain = () => {
      for (let read = fs.readSync(fd, buffer, 0, buffer.byteLength, offset); read > 0; read = fs.readSync(fd, buffer, 0, buffer.byteLength, offset)) {
        offset += read;
        for (const line of splitter.push(buffer.subarray(0, read))) {
          const event = JSON.parse(line) as { type: string; sent_at: number };
          if (event.type === "end") {
            watcher.close();
            resolve();
            return;
          }
          latencies.push(stamp() - event.sent_at);
        }
      }
    };
    const watcher = fs.watch(file, drain);
    writer.go();
  });
  fs.closeSync(fd);
  const syncs = JSON.parse((await writer.next()).slice("fdatasync ".length)) as number[];
  await writer.exited;
  return { latencies, syncs };
}

/**
 * The durable floor: the writer fdatasyncs, then rewrites the durable size in `<file>.hint`;
 * this process watches the hint, reads the size it names, and reads the log up to it.
 */
async function followDurable(file: string): Promise<number[]> {
  const writer = startWriter("durable", file);
  await writer.ready();
  const latencies: number[] = [];
  const fd = fs.openSync(file, "r");
  const hintFd = fs.openSync(`${file}.hint`, "r");
  const hintBytes = Buffer.alloc(24);
  const splitter = new LineSplitter();
  const buffer = Buffer.allocUnsafe(1 << 16);
  let offset = 0;
  await new Promise<void>((resolve) => {
    const drain = () => {
      const durable = Number(hintBytes.toString("latin1", 0, fs.readSync(hintFd, hintBytes, 0, hintBytes.byteLength, 0)).trim());
      while (offset < durable) {
        const read = fs.readSync(fd, buffer, 0, Math.min(buffer.byteLength, durable - offset), offset);
        if (read === 0) break;
        offset += read;
        for (const line of splitter.push(buffer.subarray(0, read))) {
          const event = JSON.parse(line) as { type: string; sent_at: number };
          if (event.type === "end") {
            watcher.close();
            resolve();
            return;
          }
          latencies.push(stamp() - event.sent_at);
        }
      }
    };
    const watcher = fs.watch(`${file}.hint`, drain);
    writer.go();
  });
  fs.closeSync(hintFd);
  fs.closeSync(fd);
  await writer.exited;
  return latencies;
}

type Figures = { p50: number; p99: number; max: number };
const figures = (latencies: number[]): Figures => {
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
};

const storeRounds: Figures[] = [];
const rawRounds: Figures[] = [];
const durableRounds: Figures[] = [];
const syncRounds: Figures[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const { batonDir, cleanup } = await scratchBatonDir();
  try {
    storeRounds.push(figures(await followStore(batonDir)));
    const raw = await followRaw(path.join(batonDir, "raw.jsonl"));
    rawRounds.push(figures(raw.latencies));
    syncRounds.push(figures(raw.syncs));
    durableRounds.push(figures(await followDurable(path.join(batonDir, "durable.jsonl"))));
  } finally {
    await cleanup();
  }
}
const mid = (rounds: Figures[], key: keyof Figures) => median(rounds.map((r) => r[key]));
const line = (name: string, rounds: Figures[]) =>
  `  ${name.padEnd(36)} p50 ${fixed(mid(rounds, "p50")).padStart(6)} ms   p99 ${fixed(mid(rounds, "p99")).padStart(6)} ms   max ${fixed(mid(rounds, "max")).padStart(7)} ms   (rounds' p99: ${rounds.map((r) => fixed(r.p99, 1)).join(", ")})`;
console.log(`cross-process follow latency, append -> delivery, ${events} events one per ${INTERVAL_MS} ms, ${ROUNDS} rounds, medians`);
console.log(line("store (followRun, other process)", storeRounds));
console.log(line("raw (write+fsync, fs.watch+read)", rawRounds));
console.log(line("durable floor (O_DSYNC write, then wake)", durableRounds));
console.log(line("fdatasync of one line (raw writer)", syncRounds));
console.log("  the raw floor has no durability wait: fs.watch fires at the write, before its fdatasync, and its writer stamps");
console.log("  the next event only after that fdatasync. The store delivers only durable events (durable before delivered),");
console.log("  so a durable write is in each of its latencies, as in the durable floor's: the least a durable follower can do,");
console.log("  written as the store writes (O_DSYNC, group commit), and the aim's baseline (docs/adr/0023)");
const ratio = (rounds: Figures[], key: keyof Figures) => fixed(mid(storeRounds, key) / mid(rounds, key));
console.log(`  ratio store / durable: p50 ${ratio(durableRounds, "p50")}, p99 ${ratio(durableRounds, "p99")}   (aim: p99 <= 3)`);
console.log(`  ratio store / raw:     p50 ${ratio(rawRounds, "p50")}, p99 ${ratio(rawRounds, "p99")}   (context: the durable floor / raw p99 ${fixed(mid(durableRounds, "p99") / mid(rawRounds, "p99"))} is the durability wait's share)`);
