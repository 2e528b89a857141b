// Time to first byte and the gaps between chunks of streamed model answers, through Baton's
// inference proxy against direct to the upstream. The upstream (`upstream-child.ts`) and the
// proxy (`proxy-child.ts`) each run in a process of their own, as a provider and Baton do; the
// client, in this process, is the agent, with one keep-alive agent for both sides. So a direct
// call crosses from the client's process to the upstream's and back, and a proxied one crosses
// to the proxy's too: the proxy is charged for its own hop, not for leaving a process that the
// direct side never left. A third side goes through a bare TCP relay (`relay-child.ts`), also a
// process of its own, which reads nothing: what it adds is what any hop costs on this machine at
// this load, the floor under the proxy's overhead.
//
// First, one call at a time through each side of new processes ("first calls", 20 a side, the
// very first left out): the proxy's code runs as V8 first runs it, not yet compiled, as in a
// `baton run` that has made few model calls. Then 500 calls through each side (50 clients, 10
// calls each), and three loads on code compiled, as in a process that has served a while, the
// sides measured in the same run and alternating:
//   - 1 stream: one call at a time, direct and proxied calls taking turns;
//   - 50 concurrent: 50 streams in flight at once, each client calling again as its answer ends,
//     their starts spread over one answer's length (as 50 agents at work call their model), the
//     first call of each left out;
//   - 50 at once: 50 calls started together, a round each (a burst: the 50th waits for the 49
//     before it at each process on the way).
// Prints p50/p99 of each side, the proxy's overhead (proxy − direct, at p99) and the relay's,
// and the CPU a call costs the proxy process and the relay; asserts nothing.
//   node bench/proxy/proxy-latency.bench.ts [--chunks N] [--rounds N] [--calls N] [--quick]
//   (defaults 50 chunks, 5 rounds, 20 single calls a side a round; quick 20, 2, 10)
// BATON_BENCH_PROF=DIR writes the proxy process's CPU profile there (node --cpu-prof).
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { Agent, request, type IncomingMessage } from "node:http";
import { loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fixed, percentile, quick, repoRoot, sizeArg } from "../measure.ts";

const CHUNKS = sizeArg("chunks", "BATON_BENCH_CHUNKS", 50, 20);
const ROUNDS = sizeArg("rounds", "BATON_BENCH_ROUNDS", quick ? 2 : 5, 2);
const CALLS = sizeArg("calls", "BATON_BENCH_CALLS", 20, 10);
const CHUNK_MS = sizeArg("chunk-ms", "BATON_BENCH_CHUNK_MS", 2, 2);
const AIM_MS = 2;
const STREAMS = 50;
/** Calls each of the 50 concurrent clients makes a round; its first is the ramp-up, not counted. */
const CALLS_PER_CLIENT = 3;
/** Calls each of 50 clients makes through each side between the first calls and the loads. */
const WARM_CALLS_PER_CLIENT = 10;

type Child = ChildProcessByStdio<Writable, Readable, null>;

function start(args: string[]): { child: Child; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function line(lines: AsyncIterator<string>, what: string): Promise<string> {
  const next = await lines.next();
  if (next.done === true) throw new Error(`the ${what} process ended before it printed its line`);
  return next.value;
}

const upstream = start([path.join(repoRoot, "bench/proxy/upstream-child.ts"), String(CHUNKS), String(CHUNK_MS)]);
const upstreamUrl = await line(upstream.lines, "upstream");
const profile = process.env["BATON_BENCH_PROF"];
const proxy = start([...(profile ? ["--cpu-prof", "--cpu-prof-dir", profile] : []), path.join(repoRoot, "bench/proxy/proxy-child.ts"), upstreamUrl]);
const proxied = JSON.parse(await line(proxy.lines, "proxy")) as { url: string; token: string; cpuMs: number };
const relay = start([path.join(repoRoot, "bench/proxy/relay-child.ts"), upstreamUrl]);
const relayed = JSON.parse(await line(relay.lines, "relay")) as { url: string; cpuMs: number };

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 512, stream: true, messages: [{ role: "user", content: "Say hello." }] });

type Side = { ttfb: number[]; gaps: number[] };
type Target = { base: string; token: string };
const targets = { direct: { base: upstreamUrl, token: "k" }, relay: { base: relayed.url, token: "k" }, proxy: { base: proxied.url, token: proxied.token } } satisfies Record<string, Target>;
type SideName = keyof typeof targets;
const SIDES = Object.keys(targets) as SideName[];

/** One streamed call: ms to the first body chunk, and the gaps between the chunks that follow, added to `side`. */
function stream(target: Target, side: Side | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { "content-type": "application/json", "x-api-key": target.token, "content-length": Buffer.byteLength(body) };
    const req = request(`${target.base}/v1/messages`, { method: "POST", agent, headers }, (res: IncomingMessage) => {
      let last: number | undefined;
      res.on("data", () => {
        const now = performance.now();
        if (last === undefined) side?.ttfb.push(now - started);
        else side?.gaps.push(now - last);
        last = now;
      });
      res.on("end", resolve);
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 50 clients, each calling again as its answer ends, their starts spread over one answer's length. */
async function concurrent(target: Target, side: Side | undefined): Promise<void> {
  const spread = (CHUNKS * CHUNK_MS) / STREAMS;
  await Promise.all(
    Array.from({ length: STREAMS }, async (_, client) => {
      await pause(client * spread);
      for (let call = 0; call < CALLS_PER_CLIENT; call++) await stream(target, call === 0 ? undefined : side);
    }),
  );
}

const burst = (target: Target, side: Side | undefined) => Promise.all(Array.from({ length: STREAMS }, () => stream(target, side))).then(() => {});

const loads: Array<{ name: string; round: (target: Target, side: Side | undefined) => Promise<void>; alternate: "call" | "round" }> = [
  {
    name: "1 stream",
    round: async (target, side) => {
      for (let call = 0; call < CALLS; call++) await stream(target, side);
    },
    alternate: "call",
  },
  { name: `${STREAMS} concurrent`, round: concurrent, alternate: "round" },
  { name: `${STREAMS} at once`, round: burst, alternate: "round" },
];

type Percentiles = { p50: number; p99: number };
const describe = (values: number[]): Percentiles => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

const load = () => loadavg().map((n) => fixed(n)).join(" ");
console.log(`proxy latency: ${CHUNKS} chunks ${CHUNK_MS} ms apart per answer, ${ROUNDS} rounds, sides alternating; load ${load()}`);
/** p50 and p99 of each side, the proxy's overhead and the relay's, a line for each measure. */
function report(name: string, sides: Record<SideName, Side>): void {
  for (const [what, key] of [["time to first byte", "ttfb"], ["inter-chunk gap", "gaps"]] as const) {
    const [d, r, p] = SIDES.map((side) => describe(sides[side][key])) as [Percentiles, Percentiles, Percentiles];
    const overhead = p.p99 - d.p99;
    console.log(
      `  ${name.padEnd(13)} ${what.padEnd(18)} direct p50 ${fixed(d.p50)} p99 ${fixed(d.p99)} · relay p50 ${fixed(r.p50)} p99 ${fixed(r.p99)} · proxy p50 ${fixed(p.p50)} p99 ${fixed(p.p99)} ms · ` +
        `proxy p99 overhead ${fixed(overhead)} ms (aim ≤ ${AIM_MS} ms${overhead <= AIM_MS ? "" : ", missed"}), a bare relay's ${fixed(r.p99 - d.p99)} ms`,
    );
  }
}

const emptySides = () => Object.fromEntries(SIDES.map((side) => [side, { ttfb: [], gaps: [] }])) as unknown as Record<SideName, Side>;

// The first calls of new processes: the proxy's code not yet compiled, as in a `baton run` that
// has made few model calls. Connections are made on the first call of each side, left out.
const cold = emptySides();
for (const side of SIDES) await stream(targets[side], undefined);
for (let call = 0; call < CALLS; call++) for (const side of SIDES) await stream(targets[side], cold[side]);
report("first calls", cold);

// Then each side serves a while, so that the loads measure code compiled, as in a process that
// has served many calls (V8 compiles a function once it has run often).
for (const side of SIDES) {
  await Promise.all(Array.from({ length: STREAMS }, async () => {
    for (let call = 0; call < WARM_CALLS_PER_CLIENT; call++) await stream(targets[side], undefined);
  }));
}

for (const { name, round, alternate } of loads) {
  const sides = emptySides();
  // A warm-up of each side at this load.
  for (const side of SIDES) await round(targets[side], undefined);
  for (let r = 0; r < ROUNDS; r++) {
    if (alternate === "round") {
      for (const side of SIDES) await round(targets[side], sides[side]);
    } else {
      for (let call = 0; call < CALLS; call++) for (const side of SIDES) await stream(targets[side], sides[side]);
    }
  }
  report(name, sides);
}
proxy.child.stdin.end();
const spent = JSON.parse(await line(proxy.lines, "proxy")) as { calls: number; cpuMs: number };
relay.child.stdin.end();
const relaySpent = JSON.parse(await line(relay.lines, "relay")) as { cpuMs: number };
// The relay carries as many calls as the proxy (every load runs each side alike).
const perCall = (ms: number) => fixed((ms * 1000) / spent.calls, 0);
console.log(
  `  CPU a call (${CHUNKS + 3} chunks each, ${spent.calls} calls a side): the proxy process ${perCall(spent.cpuMs - proxied.cpuMs)} µs, the bare relay ${perCall(relaySpent.cpuMs - relayed.cpuMs)} µs; load ${load()}`,
);
upstream.child.stdin.end();
await Promise.all([proxy.child, relay.child, upstream.child].map((child) => new Promise((resolve) => child.once("close", resolve))));
agent.destroy();
