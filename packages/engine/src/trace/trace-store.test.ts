import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
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

test("another store on the same run folder never replaces an output already there", async () => {
  // Two agent sessions of one run (stages, branches, or a resumed run) both number their calls from call_1.
  const runDir = await testTempDir("trace-store-sessions-");
  const first = new TraceStore({ runDir, redactor: new Redactor([]) });
  const second = new TraceStore({ runDir, redactor: new Redactor([]) });
  assert.equal(first.write("call_1", "plan stage")?.file, "outputs/call_1.txt");
  assert.equal(second.write("call_1", "build stage")?.file, "outputs/call_1-2.txt");
  assert.equal(second.write("call_1", "build stage, rewritten")?.file, "outputs/call_1-2.txt");
  assert.equal(await readFile(join(runDir, "outputs", "call_1.txt"), "utf8"), "plan stage");
  assert.equal(await readFile(join(runDir, "outputs", "call_1-2.txt"), "utf8"), "build stage, rewritten");
});

/** Waits until `check` holds (a file's state), checking after each turn of the event loop. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setImmediate(resolve));
}

const exists = (file: string) => stat(file).then(() => true, () => false);

test("a call reserved as it starts is written into the file claimed for it", async () => {
  const runDir = await testTempDir("trace-store-reserve-");
  const store = new TraceStore({ runDir, redactor: new Redactor(["hunter2-secret"]) });
  store.reserve("call_1");
  // The claim is made off the thread: the file is there, empty, before the call ends.
  await until(() => exists(join(runDir, "outputs", "call_1.txt")));
  assert.equal(await readFile(join(runDir, "outputs", "call_1.txt"), "utf8"), "");
  // The open file is handed back on a later turn of the loop than the one that made it.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(store.write("call_1", "ran hunter2-secret\n"), { file: "outputs/call_1.txt", writtenChars: 15, cut: false });
  assert.equal(await readFile(join(runDir, "outputs", "call_1.txt"), "utf8"), "ran [REDACTED]\n");
  assert.equal(store.write("call_1", "again")?.file, "outputs/call_1.txt");
  assert.equal(await readFile(join(runDir, "outputs", "call_1.txt"), "utf8"), "again");
  assert.deepEqual(await readdir(join(runDir, "outputs")), ["call_1.txt"]);
});

test("a call that ends before its claimed file is made is written whole at once, and the claim leaves no file", async () => {
  const runDir = await testTempDir("trace-store-early-");
  const store = new TraceStore({ runDir, redactor: new Redactor([]) });
  store.reserve("call_1");
  const traced = store.write("call_1", "done\n");
  // The event names a file that holds the output as it returns.
  assert.ok(traced !== undefined);
  assert.equal(await readFile(join(runDir, traced.file), "utf8"), "done\n");
  await until(async () => (await readdir(join(runDir, "outputs"))).length === 1);
  assert.deepEqual(await readdir(join(runDir, "outputs")), [traced.file.slice("outputs/".length)]);
});

test("a claim another store of the run holds is not taken: the output gets a name of its own", async () => {
  const runDir = await testTempDir("trace-store-reserve-taken-");
  const first = new TraceStore({ runDir, redactor: new Redactor([]) });
  assert.equal(first.write("call_1", "plan stage")?.file, "outputs/call_1.txt");
  const second = new TraceStore({ runDir, redactor: new Redactor([]) });
  second.reserve("call_1");
  // Its claim fails on the file that is there (or is still being tried): the write claims the next free name.
  assert.equal(second.write("call_1", "build stage")?.file, "outputs/call_1-2.txt");
  assert.equal(await readFile(join(runDir, "outputs", "call_1.txt"), "utf8"), "plan stage");
  assert.equal(await readFile(join(runDir, "outputs", "call_1-2.txt"), "utf8"), "build stage");
});

test("a released claim (a call without output, or never ended) leaves no file", async () => {
  const runDir = await testTempDir("trace-store-release-");
  const store = new TraceStore({ runDir, redactor: new Redactor([]) });
  store.reserve("quiet");
  store.reserve("opened");
  await until(() => exists(join(runDir, "outputs", "opened.txt")));
  await new Promise((resolve) => setImmediate(resolve));
  store.release("opened");
  store.release("quiet");
  await until(async () => (await readdir(join(runDir, "outputs"))).length === 0);
  // A name whose empty file was removed is free again.
  assert.equal(store.write("opened", "later")?.file, "outputs/opened.txt");
});
