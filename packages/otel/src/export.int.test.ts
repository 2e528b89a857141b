import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { openStore } from "@baton/engine/store";
import { testTempDir } from "@baton/protocol/testing";
import { exportSpans, type SpanItem } from "./export-loop.ts";
import { resolveOtlpSettings } from "./otlp-settings.ts";
import { batonResource } from "./readable-span.ts";
import { otlpSink } from "./span-sink.ts";
import { runSpanItems } from "./span-sources.ts";
import { RunSpanTree } from "./span-tree.ts";
import { OtlpReceiver } from "./testing/otlp-receiver.ts";
import { SCRIPTED_RUN, scriptedWorkflowRun } from "./testing/scripted-run.ts";
import { spanCount, writeToolRun } from "./testing/tool-run.ts";

async function* itemsOf(events = scriptedWorkflowRun()): AsyncGenerator<SpanItem> {
  const tree = new RunSpanTree(SCRIPTED_RUN);
  for (const event of events) yield { spans: tree.push(event), cursor: event.seq ?? 0 };
}

async function batonDir(): Promise<string> {
  const dir = join(await testTempDir("otel-"), ".baton");
  await mkdir(dir);
  return dir;
}

test("a scripted run's spans reach an OTLP/HTTP receiver as built: ids, parents, names, kinds and attributes", async () => {
  await using receiver = await OtlpReceiver.start();
  const built = [...(function* () {
    const tree = new RunSpanTree(SCRIPTED_RUN);
    for (const event of scriptedWorkflowRun()) yield* tree.push(event);
  })()];
  const sink = otlpSink({ url: receiver.url, headers: { "x-tenant": "t1" }, protocol: "http/json" });
  const accepted: number[] = [];
  const totals = await exportSpans(itemsOf(), { sink, resource: batonResource(), batchSpans: 4, onAccepted: (cursor) => void accepted.push(cursor) });
  await sink.shutdown();
  assert.deepEqual(totals, { spans: built.length, batches: 2, cursor: 20 });
  assert.deepEqual(accepted, [17, 20], "the cursor moves only past accepted batches");
  assert.equal(receiver.requests[0]?.headers["x-tenant"], "t1");
  assert.deepEqual(
    receiver.accepted.map((span) => ({ traceId: span.traceId, spanId: span.spanId, parent: span.parentSpanId, name: span.name, kind: span.kind })),
    built.map((span) => ({ traceId: span.traceId, spanId: span.spanId, parent: span.parentSpanId, name: span.name, kind: span.kind === "client" ? 3 : 1 })),
  );
  const turn = receiver.accepted.find((span) => span.name === "invoke_agent claude");
  assert.equal(turn?.attributes["gen_ai.usage.input_tokens"], 1200);
  assert.deepEqual(turn?.attributes["gen_ai.response.finish_reasons"], ["end_turn"]);
  assert.equal(turn?.startTimeUnixNano, String(BigInt(Date.parse("2026-11-29T10:00:00.500Z")) * 1_000_000n));
  assert.deepEqual(receiver.accepted.find((span) => span.name === "execute_tool Bash")?.events.map((event) => event.name), ["permission.requested", "permission.resolved"]);
});

test("a batch the receiver refuses (503) is sent again, the same spans, until accepted: each span id is accepted once", async () => {
  await using receiver = await OtlpReceiver.start();
  receiver.failing = 2;
  const sink = otlpSink({ url: receiver.url, headers: {}, protocol: "http/json" });
  const totals = await exportSpans(itemsOf(), { sink, resource: batonResource() });
  await sink.shutdown();
  assert.deepEqual(receiver.requests.map((request) => request.answered), [503, 503, 200]);
  const ids = receiver.accepted.map((span) => span.spanId);
  assert.equal(ids.length, totals.spans);
  assert.equal(new Set(ids).size, ids.length);
});

test("a batch whose export fails is tried again before the next is read; after maxTries the loop fails with the cursor where it was", async () => {
  const sent: string[][] = [];
  let failures = 2;
  const sink = {
    send: async (spans: { name: string }[]) => {
      if (failures-- > 0) throw new Error("connection refused");
      sent.push(spans.map((span) => span.name));
    },
    shutdown: async () => {},
  };
  const retries: number[] = [];
  const accepted: number[] = [];
  await exportSpans(itemsOf(), { sink, resource: batonResource(), batchSpans: 4, onRetry: (_error, attempt) => void retries.push(attempt), onAccepted: (cursor) => void accepted.push(cursor) });
  assert.deepEqual(retries, [1, 2]);
  assert.deepEqual(sent.flat().length, 6);
  assert.deepEqual(accepted, [17, 20]);
  const failing = { send: async () => Promise.reject(new Error("down")), shutdown: async () => {} };
  const cursors: number[] = [];
  await assert.rejects(exportSpans(itemsOf(), { sink: failing, resource: batonResource(), maxTries: 1, onAccepted: (cursor) => void cursors.push(cursor) }), /down/);
  assert.deepEqual(cursors, []);
});

test("http/protobuf, the default encoding, is sent as OTLP protobuf", async () => {
  await using receiver = await OtlpReceiver.start();
  const settings = resolveOtlpSettings({}, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.base });
  assert.deepEqual(settings, { url: receiver.url, headers: {}, protocol: "http/protobuf" });
  const sink = otlpSink(settings);
  await exportSpans(itemsOf(), { sink, resource: batonResource() });
  await sink.shutdown();
  assert.equal(receiver.requests.length, 1);
  assert.equal(receiver.requests[0]?.contentType, "application/x-protobuf");
  assert.ok((receiver.requests[0]?.bytes ?? 0) > 500);
});

test("a 100,000-event run replayed from the store is exported with 0 spans dropped", async () => {
  const dir = await batonDir();
  const shape = { turns: 1_000, toolsPerTurn: 49 };
  const runId = await writeToolRun(dir, shape);
  await using store = await openStore(dir, { liveEvents: false });
  await using receiver = await OtlpReceiver.start();
  const sink = otlpSink({ url: receiver.url, headers: {}, protocol: "http/json" });
  const totals = await exportSpans(runSpanItems(store, runId), { sink, resource: batonResource() });
  await sink.shutdown();
  const expected = spanCount(shape);
  assert.equal(totals.spans, expected);
  assert.equal(totals.cursor, 100_003);
  assert.equal(receiver.accepted.length, expected, "every span arrived");
  assert.equal(new Set(receiver.accepted.map((span) => span.spanId)).size, expected, "each once");
});

test("exporting from a cursor sends a span open at the cursor whole, and no span that ended before it", async () => {
  const events = scriptedWorkflowRun();
  const all = [...(function* () {
    const tree = new RunSpanTree(SCRIPTED_RUN);
    for (const event of events) yield* tree.push(event);
  })()];
  const dir = await batonDir();
  {
    await using store = await openStore(dir, { liveEvents: false });
    const { number: _number, ...created } = events[0]?.data ?? {};
    const writer = await store.createRun(created);
    for (const event of events.slice(1)) writer.append(event.type, event.data, event.stage);
    await writer.close();
  }
  await using store = await openStore(dir, { liveEvents: false });
  const [run] = await store.listRuns();
  const tail: string[] = [];
  for await (const item of runSpanItems(store, run?.id ?? "", { after: 11 })) tail.push(...item.spans.map((span) => span.name));
  // Bash ended at seq 11 (sent before); Task ended at 12, having started at 7, before the cursor.
  assert.deepEqual(tail, all.slice(1).map((span) => span.name));
});
