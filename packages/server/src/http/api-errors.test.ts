import assert from "node:assert/strict";
import { test } from "node:test";
import { Hono } from "hono";
import { errorResponse } from "./api-errors.ts";

/** Anything a terminal acts on but newline (the stack's lines stay lines). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** What `console.error` printed while `run` ran. */
async function logged(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...parts: unknown[]) => void lines.push(parts.map(String).join(" "));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return lines.join("\n");
}

test("a 500's log line shows the client's path and the error's text with their controls escaped, never raw", async () => {
  const app = new Hono();
  app.onError(errorResponse);
  app.get("/api/runs/:ref", (c) => {
    throw new Error(`cannot read ${c.req.param("ref")}`);
  });
  let status = 0;
  const log = await logged(async () => {
    const response = await app.request("http://localhost/api/runs/%1b%5b2J%1b%5d0;pwned%07%e2%80%ae");
    status = response.status;
    assert.deepEqual(await response.json(), { error: { code: "internal", message: "the server failed to handle this request; see its log" } });
  });
  assert.equal(status, 500);
  assert.match(log, /^baton serve: GET \/api\/runs\/\\x1b\[2J\\x1b\]0;pwned\\x07\\u202e failed: Error: cannot read \\x1b\[2J/);
  assert.doesNotMatch(log, RAW_CONTROL);
  assert.match(log, /\n\s+at /, "the stack is still laid out over lines");
});
