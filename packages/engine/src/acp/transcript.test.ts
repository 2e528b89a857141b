import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { Redactor } from "../redaction/redactor.ts";
import { AcpTranscript } from "./transcript.ts";

const SECRET = "sk-transcript-secret-1234";

test("the transcript keeps every line in wire order, one record each, secrets replaced, written once closed", async () => {
  const path = join(await testTempDir("transcript-"), "acp.jsonl");
  const transcript = new AcpTranscript(path, new Redactor([SECRET]), () => new Date("2026-12-01T10:00:00.000Z"));
  const sent = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } };
  const answer = `{"jsonrpc":"2.0", "id":1, "result":{"key":"${SECRET}"}}\r`;
  assert.deepEqual(transcript.record("send", JSON.stringify(sent)), sent);
  assert.deepEqual(transcript.record("recv", answer), { jsonrpc: "2.0", id: 1, result: { key: "[REDACTED]" } });
  assert.equal(transcript.record("recv", `not json ${SECRET}`), undefined);
  for (let n = 0; n < 2_000; n += 1) transcript.record("recv", JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { n } }));
  assert.equal(await transcript.close(), undefined);
  const text = await readFile(path, "utf8");
  assert.ok(!text.includes(SECRET));
  const lines = text.split("\n");
  assert.equal(lines.pop(), "", "the file ends with a whole record");
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(records.length, 2_003);
  assert.deepEqual(records[0], { i: 1, at: "2026-12-01T10:00:00.000Z", dir: "send", msg: sent });
  assert.deepEqual(records[1], { i: 2, at: "2026-12-01T10:00:00.000Z", dir: "recv", msg: { jsonrpc: "2.0", id: 1, result: { key: "[REDACTED]" } } });
  assert.deepEqual(records[2], { i: 3, at: "2026-12-01T10:00:00.000Z", dir: "recv", raw: "not json [REDACTED]" });
  assert.deepEqual(records.slice(3).map((record) => (record["msg"] as { params: { n: number } }).params.n), Array.from({ length: 2_000 }, (_, n) => n));
  assert.deepEqual(records.map((record) => record["i"]), Array.from({ length: 2_003 }, (_, n) => n + 1));
});
