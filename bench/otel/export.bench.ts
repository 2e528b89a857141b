// Spans exported per second replaying a finished run from the store to an OTLP/HTTP receiver
// on loopback (in this process; protobuf bodies are counted, not decoded), one accepted batch
// at a time. Baseline, same run: the SDK's OTLP exporter sending the same spans, already built
// and in memory, in batches of the same size: the floor of exporting itself. Context: the
// SDK's default path (a tracer, BatchSpanProcessor) fed the same number of spans at once.
//   node bench/otel/export.bench.ts [--events N] [--quick]
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { openStore } from "@baton/engine/store";
import { batonResource, DEFAULT_BATCH_SPANS, exportSpans, otlpSink, runSpanItems, toReadableSpan, type SpanRecord } from "@baton/otel";
import { OtlpReceiver, spanCount, writeToolRun } from "@baton/otel/testing";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { fixed, median, quick, sizeArg, whole } from "../measure.ts";

const events = sizeArg("--events", "BATON_BENCH_EVENTS", 100_000, 20_000);
const rounds = quick ? 1 : 3;
const TOOLS_PER_TURN = 49;
const shape = { turns: Math.max(1, Math.round((events - 3) / (2 + 2 * TOOLS_PER_TURN))), toolsPerTurn: TOOLS_PER_TURN };
const expected = spanCount(shape);

const root = await mkdtemp(join(tmpdir(), "baton-bench-otel-"));
try {
  const batonDir = join(root, ".baton");
  await mkdir(batonDir);
  const runId = await writeToolRun(batonDir, shape);
  await using store = await openStore(batonDir, { liveEvents: false });
  await using receiver = await OtlpReceiver.start();
  const eventCount = 3 + shape.turns * (2 + 2 * shape.toolsPerTurn);
  console.log(`OTLP/HTTP export: a finished run of ${whole(eventCount)} events (${whole(expected)} spans) replayed from the store, batches of ${DEFAULT_BATCH_SPANS}, ${rounds} round(s), medians`);

  // Baton: read the log, fold it into spans, convert, send; the next batch read after the previous is accepted.
  const batonRates: number[] = [];
  let dropped = 0;
  for (let round = 0; round < rounds; round += 1) {
    const sink = otlpSink({ url: receiver.url, headers: {}, protocol: "http/protobuf" });
    const started = performance.now();
    const totals = await exportSpans(runSpanItems(store, runId), { sink, resource: batonResource() });
    const seconds = (performance.now() - started) / 1_000;
    await sink.shutdown();
    dropped += expected - totals.spans;
    batonRates.push(totals.spans / seconds);
  }

  // Checked once with decoded bodies: every span id arrives, once.
  const before = receiver.accepted.length;
  const jsonSink = otlpSink({ url: receiver.url, headers: {}, protocol: "http/json" });
  const jsonStarted = performance.now();
  await exportSpans(runSpanItems(store, runId), { sink: jsonSink, resource: batonResource() });
  const jsonRate = expected / ((performance.now() - jsonStarted) / 1_000);
  await jsonSink.shutdown();
  const received = receiver.accepted.slice(before);
  const distinct = new Set(received.map((span) => span.spanId)).size;

  // Baseline: the same spans, built beforehand, through the same exporter.
  const records: SpanRecord[] = [];
  for await (const item of runSpanItems(store, runId)) records.push(...item.spans);
  const resource = batonResource();
  const built = records.map((record) => toReadableSpan(record, resource));
  const bareRates: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const sink = otlpSink({ url: receiver.url, headers: {}, protocol: "http/protobuf" });
    const started = performance.now();
    for (let i = 0; i < built.length; i += DEFAULT_BATCH_SPANS) await sink.send(built.slice(i, i + DEFAULT_BATCH_SPANS));
    bareRates.push(built.length / ((performance.now() - started) / 1_000));
    await sink.shutdown();
  }

  // Context: the SDK's default pipeline, the same number of spans started and ended at once.
  const sdkBefore = receiver.accepted.length;
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url, headers: { "content-type": "application/json" } }))] });
  const tracer = provider.getTracer("bench");
  for (let i = 0; i < expected; i += 1) tracer.startSpan("burst").end();
  await provider.forceFlush();
  await provider.shutdown();
  const sdkReceived = receiver.accepted.length - sdkBefore;

  const baton = median(batonRates);
  const bare = median(bareRates);
  console.log(`  Baton (store → spans → OTLP protobuf)   ${whole(Math.round(baton))} spans/s   (rounds: ${batonRates.map((r) => whole(Math.round(r))).join(", ")})   dropped ${whole(dropped)}   (aim: >= 5,000 spans/s, 0 dropped)`);
  console.log(`  baseline: prebuilt spans, same exporter ${whole(Math.round(bare))} spans/s   (rounds: ${bareRates.map((r) => whole(Math.round(r))).join(", ")})`);
  console.log(`  ratio Baton / baseline: ${fixed(baton / bare)}`);
  console.log(`  with OTLP JSON, bodies decoded by the receiver: ${whole(Math.round(jsonRate))} spans/s; received ${whole(received.length)} spans, ${whole(distinct)} distinct ids of ${whole(expected)}`);
  console.log(`  context: the SDK's BatchSpanProcessor (default queue of 2,048) fed ${whole(expected)} spans at once delivered ${whole(sdkReceived)} (${fixed((100 * (expected - sdkReceived)) / expected, 1)}% dropped)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
