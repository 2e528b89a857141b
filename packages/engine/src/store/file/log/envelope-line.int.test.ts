import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { openStore } from "../open-store.ts";
import { makeBatonDir, steppingClock } from "../test-fixtures/temp-store.ts";

const LIMIT = 1000;

/** The fixed part of a line: everything but the data's JSON, for a seq of `digits` digits. */
function envelopeBytes(runId: string, digits: number, type: string): number {
  return JSON.stringify({ v: 1, run: runId, seq: 10 ** (digits - 1), at: "2026-01-01T00:00:00.000Z", type, data: {} }).length - 2;
}

test("each line is byte for byte JSON.stringify of the envelope append returned, whatever the data and the seq's digits", async (t) => {
  await using store = await openStore(await makeBatonDir(t), { now: steppingClock() });
  const writer = await store.createRun();
  const samples: Record<string, unknown>[] = [
    { level: "info", message: "plain" },
    { level: "info", message: "accents é, CJK 漢字, emoji 🎉, a lone surrogate \ud800, quotes \" and \\ and \n" },
    { level: "info", message: "nested", extra: { list: [1, 2.5, -3e21, null, true], empty: {}, skipped: undefined } },
  ];
  const appended = [];
  for (let index = 0; index < 120; index += 1) appended.push(writer.append("log", samples[index % samples.length] as Record<string, unknown>));
  await writer.close();
  const lines = (await readFile(store.eventsPath(writer.runId), "utf8")).split("\n").slice(0, -1);
  assert.deepEqual(lines, appended.map((event) => JSON.stringify(event)));
  assert.deepEqual(appended.map((event) => event.seq).slice(7, 11), [8, 9, 10, 11]);
});

test("the cap is exact: a line of the limit is kept, one byte more is truncated with its envelope and seq", async (t) => {
  await using store = await openStore(await makeBatonDir(t), { eventLimitBytes: LIMIT });
  const writer = await store.createRun();
  // "é" is 2 bytes in UTF-8, so the quick UTF-16 estimate cannot decide these lines: the
  // exact count must.
  const room = LIMIT - envelopeBytes(writer.runId, 1, "log") - `{"message":"","level":"info"}`.length;
  const text = "é".repeat(Math.floor(room / 2)) + "a".repeat(room % 2);
  const fits = writer.append("log", { message: text, level: "info" });
  const over = writer.append("log", { message: `${text}b`, level: "info" });
  await writer.close();
  const lines = (await readFile(store.eventsPath(writer.runId), "utf8")).split("\n").slice(0, -1);
  assert.equal(Buffer.byteLength(lines[0] ?? ""), LIMIT);
  assert.equal(lines[0], JSON.stringify(fits));
  assert.equal(fits.data["message"], text);
  assert.deepEqual(over.data, { truncated: true, original_bytes: LIMIT + 1, limit_bytes: LIMIT });
  assert.equal(over.seq, 2);
  assert.equal(lines[1], JSON.stringify(over));
  await over.durable;
  assert.equal(Object.keys(over).includes("durable"), false);
});
