import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import type { RunSummary, StartRun } from "../client.ts";
import type { components } from "./api-types.ts";
import { API_TYPES_FILE, renderApiTypes, WRITE_API_TYPES_COMMAND } from "./write-api-types.ts";

test("the committed api-types.ts is what openapi-typescript generates from docs/openapi.json", async () => {
  const committed = await readFile(API_TYPES_FILE, "utf8").catch(() => "(missing)");
  assert.ok(committed === (await renderApiTypes()), `packages/client/src/api/api-types.ts is out of date with docs/openapi.json: run \`${WRITE_API_TYPES_COMMAND}\` and commit the result`);
});

test("the client's shapes are the generated ones: a run summary, a start, an event narrowed by type", () => {
  const run: RunSummary = { id: "run_01", number: 1, status: "running", last_seq: 2, committed_bytes: 10 };
  const start: StartRun = { agent: "fake", task: "say hi", script: [{ say: "hi" }] };
  const event: components["schemas"]["Event"] = {
    v: 1,
    run: "run_01",
    seq: 1,
    at: "2026-01-01T00:00:00.000Z",
    type: "run.created",
    data: { number: 1, task: "say hi", agent: "fake", repo: { root: "/r", dirty: false } },
  };
  const task = event.type === "run.created" ? event.data.task : undefined;
  assert.deepEqual([run.status, start.agent, task], ["running", "fake", "say hi"]);
});
