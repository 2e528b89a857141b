// SSE fan-out: C concurrent clients follow one run (`GET /api/runs/{id}/stream`) while a
// writer in another process floods it with N events. Every client must receive every durable
// event exactly once and in order (asserted; a client that gets `resync` reconnects with its
// Last-Event-ID and must still end up with all of them). Measured: append -> client receipt
// latency (p50/p99 over all clients' events) and the server's peak RSS. Baseline, same run:
// the same flood followed by one client. Server, writer and clients are separate processes
// (clients: this one). Prints figures and ratios; asserts delivery only, never timing.
// The raw floor, same run: the same bytes to the same clients from a bare node:http server
// (raw-serve-child.ts), sent all at once: under a burst, what the machine's loopback, Node's
// HTTP and the clients' own parsing take, the least any server's p99 could be here.
// Then the same at a steady rate (R events/s, as an agent streams tool output), where latency is
// the fan-out's own cost rather than queueing behind a burst.
//   node bench/serve/sse-fanout.bench.ts [--clients C] [--events N] [--rate R] [--quick]
//   (default 200 clients, 20,000 events flooded, then 10,000 at 2,000 events/s)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { fixed, mib, percentile, sizeArg } from "../measure.ts";
import { scratchBatonDir } from "../store/store-fixtures.ts";
import { clientThreads, openClients, type ClientResult } from "./sse-client-pool.ts";

const clients = sizeArg("clients", "BATON_BENCH_CLIENTS", 200, 50);
const floodEvents = sizeArg("events", "BATON_BENCH_EVENTS", 20_000, 5_000);
const rate = sizeArg("rate", "BATON_BENCH_RATE", 2_000, 2_000);
const threads = clientThreads();
const pacedEvents = Math.max(1_000, Math.round(floodEvents / 2));
const here = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = "bench-token-0123456789";

type Child = { pid: number; next: () => Promise<string>; send: (line: string) => void; end: () => void; exited: Promise<unknown> };

function startChild(script: string, args: string[]): Child {
  const child = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.on("error", () => {}); // a child that has exited: its exit is what the bench waits for
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    pid: child.pid ?? -1,
    next: async () => (await lines.next()).value as string,
    send: (line) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    exited: new Promise((resolve) => child.once("exit", resolve)),
  };
}

/** CPU seconds (user + system) of a process so far, from /proc (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  // utime + stime: fields 14 and 15 of /proc/<pid>/stat, counted after the command name.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of this process (the clients) since `since`. */
const clientsCpu = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/** Every client got ids 1 … total, in order, once (across reconnects). */
function checkDelivery(results: ClientResult[], total: number, timed: number): void {
  for (const [index, client] of results.entries()) {
    if (client.problem !== undefined) throw new Error(`client ${index}: ${client.problem}`);
    if (client.lastId !== total) throw new Error(`client ${index} ended at id ${client.lastId}, not ${total}`);
    if (client.count < timed) throw new Error(`client ${index} timed ${client.count} of ${timed} events`);
  }
}

/** Every client's latencies, sorted. */
function allLatencies(results: ClientResult[]): Float64Array {
  const all = new Float64Array(results.reduce((sum, client) => sum + client.count, 0));
  let offset = 0;
  for (const client of results) {
    all.set(client.latencies, offset);
    offset += client.count;
  }
  return all.sort();
}

type Round = { clients: number; p50: number; p99: number; max: number; peakRss: number; followers: number; dropped: number; resyncs: number; seconds: number; serverCpu: number; clientsCpu: number };

async function round(count: number, events: number, eventsPerSecond?: number): Promise<Round> {
  const { batonDir, cleanup } = await scratchBatonDir();
  const server = startChild("serve-child.ts", [batonDir]);
  try {
    const port = Number((await server.next()).split(" ")[1]);
    const writer = startChild("flood-writer.ts", [batonDir, String(events), ...(eventsPerSecond === undefined ? [] : [String(eventsPerSecond)])]);
    const runId = (await writer.next()).split(" ")[1] as string;
    const { connected, done } = openClients(count, port, `/api/runs/${runId}/stream`, TOKEN, threads);
    await connected;
    const started = performance.now();
    const cpuAtStart = { server: cpuOf(server.pid), clients: process.cpuUsage() };
    writer.send("go");
    const results = await done;
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = cpuOf(server.pid) - cpuAtStart.server;
    const usedByClients = clientsCpu(cpuAtStart.clients);
    await writer.exited;
    const peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? Number.NaN) * 1024;
    server.send("stats");
    const [, followerText, , droppedText] = (await server.next()).split(" ");
    checkDelivery(results, events + 3, events);
    const all = allLatencies(results);
    return {
      clients: count,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      max: all[all.length - 1] ?? Number.NaN,
      peakRss,
      followers: Number(followerText),
      dropped: Number(droppedText),
      resyncs: results.reduce((sum, client) => sum + client.resyncs, 0),
      seconds,
      serverCpu,
      clientsCpu: usedByClients,
    };
  } finally {
    server.end();
    await server.exited;
    await cleanup();
  }
}

type RawRound = { seconds: number; serverCpu: number; clientsCpu: number };

/** The raw floor: the same run's stream, written first, then sent to `count` clients at once by a bare server. */
async function rawRound(count: number, events: number): Promise<RawRound> {
  const { batonDir, cleanup } = await scratchBatonDir();
  try {
    const writer = startChild("flood-writer.ts", [batonDir, String(events)]);
    const runId = (await writer.next()).split(" ")[1] as string;
    writer.send("go");
    await writer.exited;
    const server = startChild("raw-serve-child.ts", [batonDir, runId, String(count)]);
    try {
      const port = Number((await server.next()).split(" ")[1]);
      const { connected, done } = openClients(count, port, "/", TOKEN, threads);
      await connected;
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      server.send("go");
      const results = await done;
      const seconds = (performance.now() - started) / 1000;
      const usedByClients = clientsCpu(cpuAtStart);
      server.send("cpu");
      const serverCpu = Number((await server.next()).split(" ")[1]);
      checkDelivery(results, events + 3, events);
      return { seconds, serverCpu, clientsCpu: usedByClients };
    } finally {
      server.end();
      await server.exited;
    }
  } finally {
    await cleanup();
  }
}

const line = (name: string, r: Round) =>
  `  ${name.padEnd(22)} p50 ${fixed(r.p50).padStart(8)} ms   p99 ${fixed(r.p99).padStart(8)} ms   max ${fixed(r.max).padStart(8)} ms   server peak RSS ${mib(r.peakRss).padStart(6)} MiB   wall ${fixed(r.seconds, 2)} s   CPU server ${fixed(r.serverCpu, 2)} s, clients ${fixed(r.clientsCpu, 2)} s   followers ${r.followers}, dropped ${r.dropped}, resyncs ${r.resyncs}`;
const report = (title: string, events: number, baseline: Round, fanout: Round, raw?: RawRound) => {
  console.log(title);
  console.log(line("1 client (baseline)", baseline));
  console.log(line(`${clients} clients`, fanout));
  console.log(`  ratio ${clients} clients / 1: p50 ${fixed(fanout.p50 / baseline.p50)}, p99 ${fixed(fanout.p99 / baseline.p99)}, server peak RSS ${fixed(fanout.peakRss / baseline.peakRss)}   (events delivered: ${(fanout.clients * (events + 3)).toLocaleString("en-US")})`);
  if (raw === undefined) return;
  console.log(`  raw floor, ${clients} clients: wall ${fixed(raw.seconds, 2)} s   CPU server ${fixed(raw.serverCpu, 2)} s, clients ${fixed(raw.clientsCpu, 2)} s   (the same bytes from a bare node:http server, all at once: no p99 here can be below about this wall)`);
  console.log(`  ratio Baton / raw floor, ${clients} clients: wall ${fixed(fanout.seconds / raw.seconds)}, server CPU ${fixed(fanout.serverCpu / raw.serverCpu)}`);
};
report(
  `SSE fan-out: ${floodEvents.toLocaleString("en-US")} events flooded into one run (another process), append -> client receipt, every event delivered in order to every client (checked); CPU counted from the flood's start`,
  floodEvents,
  await round(1, floodEvents),
  await round(clients, floodEvents),
  await rawRound(clients, floodEvents),
);
report(
  `SSE fan-out at a steady ${rate.toLocaleString("en-US")} events/s: ${pacedEvents.toLocaleString("en-US")} events, same checks`,
  pacedEvents,
  await round(1, pacedEvents, rate),
  await round(clients, pacedEvents, rate),
);
