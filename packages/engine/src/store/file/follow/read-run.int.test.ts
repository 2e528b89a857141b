import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { MalformedLine } from "../log/log-range-reader.ts";
import { openStore } from "../open-store.ts";
import { collect, makeBatonDir, range } from "../test-fixtures/temp-store.ts";

const runId = "run_01JD7Q2W3E4R5T6Y7V8W9X0AAA";

function line(seq: number, message = `event ${seq}`): string {
  return JSON.stringify({ v: 1, run: runId, seq, at: "2026-01-01T00:00:00.000Z", type: "log", data: { level: "info", message } });
}

/** Writes a run's log by hand (the index is then built from it) and opens the store. */
async function storeWithLog(t: Parameters<typeof makeBatonDir>[0], lines: string[], malformed: MalformedLine[]) {
  // These logs hold malformed lines on purpose.
  const batonDir = await makeBatonDir(t, { validateLogs: false });
  await mkdir(path.join(batonDir, "runs", runId), { recursive: true });
  await writeFile(path.join(batonDir, "runs", runId, "events.jsonl"), `${lines.join("\n")}\n`);
  return openStore(batonDir, { onMalformed: (item) => malformed.push(item) });
}

test("a malformed line in the middle is reported with its line number, and reading continues", async (t) => {
  const reported: MalformedLine[] = [];
  await using store = await storeWithLog(t, [line(1), line(2), "{this is not json", line(3), line(4)], reported);
  reported.length = 0; // the rebuild read it once too
  const seen: MalformedLine[] = [];
  const events = await collect(store.readRun(runId, { onMalformed: (item) => seen.push(item) }));
  assert.deepEqual(events.map((event) => event.seq), range(1, 4));
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.line, 3);
  assert.equal(seen[0]?.file, store.eventsPath(runId));
  assert.match(seen[0]?.error ?? "", /not JSON/);
  assert.equal(seen[0]?.text, "{this is not json");
  assert.deepEqual(reported, [], "the per-call callback replaces the store's");
});

test("a malformed line met after a seek still gets its line number in the whole file", async (t) => {
  const lines = range(1, 3000).map((seq) => line(seq));
  lines.splice(2500, 0, "garbage");
  const reported: MalformedLine[] = [];
  await using store = await storeWithLog(t, lines, reported);
  reported.length = 0;
  const events = await collect(store.readRun(runId, { after: 2400 }));
  assert.deepEqual(events.map((event) => event.seq), range(2401, 3000));
  assert.deepEqual(reported.map((item) => item.line), [2501]);
});

test("readRun after every cursor of a log with lines of very different sizes gives exactly the rest", async (t) => {
  // Long lines (100 KB) among short ones, so that the binary search runs and probes
  // land inside long lines.
  const lines = range(1, 120).map((seq) => line(seq, seq % 17 === 0 ? "y".repeat(100_000) : seq % 5 === 0 ? "z".repeat(5_000) : `m${seq}`));
  await using store = await storeWithLog(t, lines, []);
  for (let after = 0; after <= 121; after += 1) {
    const seqs = (await collect(store.readRun(runId, { after }))).map((event) => event.seq);
    assert.deepEqual(seqs, range(after + 1, 120), `after ${after}`);
  }
});

test("readRun of an unknown run is run_not_found", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  await assert.rejects(collect(store.readRun("run_01JD7Q2W3E4R5T6Y7V8W9X0ZZZ")), { code: "run_not_found" });
  await assert.rejects(collect(store.followRun("run_01JD7Q2W3E4R5T6Y7V8W9X0ZZZ")), { code: "run_not_found" });
});
