// SSE fan-out: C concurrent clients follow one run (`GET /api/runs/{id}/stream`) while a
// writer in another process floods it with N events. Every client must receive every durable
// event exactly once and in order (asserted; a client that gets `resync` reconnects with its
// Last-Event-ID and must still end up with all of them). Measured: append -> client receipt
// latency (p50/p99 over all clients' events) and the server's peak RSS. Baseline, same run:
// the same flood followed by one client. Server, writer and clients are separate processes
// (clients: this one). Prints figures and ratios; asserts delivery only, never timing.
// Then the same at a steady rate (R events/s, as an agent streams tool output), where latency is
// the fan-out's own cost rather than queueing behind a burst.
//   node bench/serve/sse-fanout.bench.ts [--clients C] [--events N] [--rate R] [--quick]
//   (default 200 clients, 20,000 events flooded, then 10,000 at 2,000 events/s)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { fixed, mib, percentile, sizeArg } from "../measure.ts";
import { scratchBatonDir } from "../store/store-fixtures.ts";

const clients = sizeArg("clients", "BATON_BENCH_CLIENTS", 200, 50);
const floodEvents = sizeArg("events", "BATON_BENCH_EVENTS", 20_000, 5_000);
const rate = sizeArg("rate", "BATON_BENCH_RATE", 2_000, 2_000);
const pacedEvents = Math.max(1_000, Math.round(floodEvents / 2));
const here = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = "bench-token-0123456789";
const stamp = () => performance.timeOrigin + performance.now();

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

/** A lean SSE client: keeps the last id, the latencies, and checks that ids go 1, 2, 3, … across reconnects. */
class FanoutClient {
  lastId = 0;
  resyncs = 0;
  readonly latencies: number[] = [];
  readonly url: string;
  #problem: string | undefined;

  constructor(url: string) {
    this.url = url;
  }

  get problem(): string | undefined {
    return this.#problem;
  }

  /** Streams until the server ends the stream after the final event (reconnecting after a resync). */
  async follow(onFirst: () => void): Promise<void> {
    let first = true;
    for (;;) {
      const outcome = await this.#once(() => {
        if (first) onFirst();
        first = false;
      });
      if (outcome === "ended") return;
      this.resyncs += 1;
    }
  }

  #once(onData: () => void): Promise<"ended" | "resync"> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
      if (this.lastId > 0) headers["last-event-id"] = String(this.lastId);
      const request = http.get(this.url, { headers }, (response) => {
        if (response.statusCode === 204) return resolve("ended");
        if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
        let buffer = "";
        let resynced = false;
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          const now = stamp();
          buffer += text;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (frame.startsWith("event: resync")) resynced = true;
            if (!frame.startsWith("id: ")) continue;
            const id = Number(frame.slice(4, frame.indexOf("\n")));
            if (id !== this.lastId + 1 && this.#problem === undefined) this.#problem = `expected id ${this.lastId + 1}, got ${id}`;
            this.lastId = id;
            const sent = /"sent_at":([\d.]+)/.exec(frame);
            if (sent !== null) this.latencies.push(now - Number(sent[1]));
          }
          onData();
        });
        response.once("end", () => resolve(resynced ? "resync" : "ended"));
        response.once("error", reject);
      });
      request.once("error", reject);
    });
  }
}

type Round = { clients: number; p50: number; p99: number; max: number; peakRss: number; followers: number; dropped: number; resyncs: number; seconds: number; serverCpu: number };

async function round(count: number, events: number, eventsPerSecond?: number): Promise<Round> {
  const { batonDir, cleanup } = await scratchBatonDir();
  const server = startChild("serve-child.ts", [batonDir]);
  try {
    const port = Number((await server.next()).split(" ")[1]);
    const writer = startChild("flood-writer.ts", [batonDir, String(events), ...(eventsPerSecond === undefined ? [] : [String(eventsPerSecond)])]);
    const runId = (await writer.next()).split(" ")[1] as string;
    const followers = Array.from({ length: count }, () => new FanoutClient(`http://127.0.0.1:${port}/api/runs/${runId}/stream`));
    let connected = 0;
    let allConnected: () => void = () => {};
    const ready = new Promise<void>((resolve) => (allConnected = resolve));
    const done = Promise.all(followers.map((client) => client.follow(() => ++connected === count && allConnected())));
    await ready;
    const started = performance.now();
    writer.send("go");
    await done;
    const seconds = (performance.now() - started) / 1000;
    await writer.exited;
    const peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? Number.NaN) * 1024;
    // utime + stime (fields 14 and 15 of /proc/<pid>/stat, counted after the command name), in clock ticks of 10 ms.
    const stat = readFileSync(`/proc/${server.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const serverCpu = (Number(fields[11]) + Number(fields[12])) / 100;
    server.send("stats");
    const [, followerText, , droppedText] = (await server.next()).split(" ");
    const total = events + 3;
    for (const [index, client] of followers.entries()) {
      if (client.problem !== undefined) throw new Error(`client ${index}: ${client.problem}`);
      if (client.lastId !== total) throw new Error(`client ${index} ended at id ${client.lastId}, not ${total}`);
      if (client.latencies.length < events) throw new Error(`client ${index} timed ${client.latencies.length} of ${events} events`);
    }
    const all = followers.flatMap((client) => client.latencies).sort((a, b) => a - b);
    return {
      clients: count,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      max: all.at(-1) ?? Number.NaN,
      peakRss,
      followers: Number(followerText),
      dropped: Number(droppedText),
      resyncs: followers.reduce((sum, client) => sum + client.resyncs, 0),
      seconds,
      serverCpu,
    };
  } finally {
    server.end();
    await server.exited;
    await cleanup();
  }
}

const line = (name: string, r: Round) =>
  `  ${name.padEnd(22)} p50 ${fixed(r.p50).padStart(8)} ms   p99 ${fixed(r.p99).padStart(8)} ms   max ${fixed(r.max).padStart(8)} ms   server peak RSS ${mib(r.peakRss).padStart(6)} MiB   server CPU ${fixed(r.serverCpu, 1)} s   wall ${fixed(r.seconds, 1)} s   followers ${r.followers}, dropped ${r.dropped}, resyncs ${r.resyncs}`;
const report = (title: string, events: number, baseline: Round, fanout: Round) => {
  console.log(title);
  console.log(line("1 client (baseline)", baseline));
  console.log(line(`${clients} clients`, fanout));
  console.log(`  ratio ${clients} clients / 1: p50 ${fixed(fanout.p50 / baseline.p50)}, p99 ${fixed(fanout.p99 / baseline.p99)}, server peak RSS ${fixed(fanout.peakRss / baseline.peakRss)}   (events delivered: ${(fanout.clients * (events + 3)).toLocaleString("en-US")})`);
};
report(
  `SSE fan-out: ${floodEvents.toLocaleString("en-US")} events flooded into one run (another process), append -> client receipt, every event delivered in order to every client (checked)`,
  floodEvents,
  await round(1, floodEvents),
  await round(clients, floodEvents),
);
report(
  `SSE fan-out at a steady ${rate.toLocaleString("en-US")} events/s: ${pacedEvents.toLocaleString("en-US")} events, same checks`,
  pacedEvents,
  await round(1, pacedEvents, rate),
  await round(clients, pacedEvents, rate),
);
