import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { Redactor } from "../redaction/redactor.ts";
import { cutMarker, safeFileStem, TraceStore } from "./trace-store.ts";

test("an output is stored whole and redacted in outputs/<call>.txt", async () => {
  const runDir = await testTempDir("trace-store-");
  const store = new TraceStore({ runDir, redactor: new Redactor(["hunter2-secret"]) });
  const traced = store.write("c_1", "login with hunter2-secret\ndone\n");
  assert.deepEqual(traced, { file: "outputs/c_1.txt", writtenChars: 27, cut: false });
  assert.equal(await readFile(join(runDir, "outputs", "c_1.txt"), "utf8"), "login with [REDACTED]\ndone\n");
});

test("an output over the cap is cut with a marker line", async () => {
  const runDir = await testTempDir("trace-store-cap-");
  const store = new TraceStore({ runDir, redactor: new Redactor([]), maxChars: 1000 });
  const traced = store.write("big", "x".repeat(5000));
  assert.equal(traced?.cut, true);
  const text = await readFile(join(runDir, "outputs", "big.txt"), "utf8");
  assert.equal(text, `${"x".repeat(1000)}\n${cutMarker(1000, 5000)}\n`);
});

test("call ids become safe file names, and ids that sanitize alike get distinct files", async () => {
  assert.equal(safeFileStem("toolu_01/../../etc"), "toolu_01_.._.._etc");
  assert.equal(safeFileStem("../x"), "__x");
  assert.equal(safeFileStem(".."), "_");
  assert.equal(safeFileStem(""), "call");
  assert.equal(safeFileStem("a".repeat(300)).length, 100);
  const runDir = await testTempDir("trace-store-names-");
  const store = new TraceStore({ runDir, redactor: new Redactor([]) });
  const first = store.write("a/b", "one");
  const second = store.write("a:b", "two");
  const again = store.write("a/b", "one, again");
  assert.equal(first?.file, "outputs/a_b.txt");
  assert.equal(second?.file, "outputs/a_b-2.txt");
  assert.equal(again?.file, "outputs/a_b.txt");
  assert.deepEqual((await readdir(join(runDir, "outputs"))).sort(), ["a_b-2.txt", "a_b.txt"]);
});

test("a write that fails returns undefined instead of throwing", async () => {
  const dir = await testTempDir("trace-store-fail-");
  await writeFile(join(dir, "not-a-dir"), "");
  const store = new TraceStore({ runDir: join(dir, "not-a-dir"), redactor: new Redactor([]) });
  assert.equal(store.write("c", "text"), undefined);
});
