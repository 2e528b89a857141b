import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { catalog } from "./catalog/index.ts";
import { buildJsonSchema } from "./json-schema.ts";
import { serializeCapped } from "./size-cap.ts";
import { SAMPLE_AT, SAMPLE_RUN_ID, sampleEvents } from "./testing/sample-events.ts";
import { JSON_SCHEMA_FILE, renderJsonSchema, WRITE_JSON_SCHEMA_COMMAND } from "./write-json-schema.ts";

// Strict mode: a schema keyword ajv does not know, or a type-less `properties`, is an error.
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(buildJsonSchema());

test("the committed docs/schema/events.v1.json is what buildJsonSchema() generates", async () => {
  const committed = await readFile(JSON_SCHEMA_FILE, "utf8").catch(() => "(missing)");
  assert.ok(committed === renderJsonSchema(), `docs/schema/events.v1.json is out of date with the catalog: run \`${WRITE_JSON_SCHEMA_COMMAND}\` and commit the result`);
});

test("the schema is draft 2020-12 and compiles under ajv's strict mode", () => {
  const schema = buildJsonSchema();
  assert.equal(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  assert.equal(typeof validate, "function");
});

for (const event of sampleEvents()) {
  test(`a valid ${event.type} passes the JSON Schema, and one with bad data fails it`, () => {
    assert.ok(validate(event), JSON.stringify(validate.errors));
    assert.equal(validate({ ...event, data: {} }), false);
    const first = Object.keys(event.data)[0]!;
    // A map of any values (a context) takes any object: for it, a string is the wrong shape.
    const value = event.data[first];
    const wrong = typeof value === "object" && value !== null && !Array.isArray(value) ? "not an object" : { wrong: [] };
    assert.equal(validate({ ...event, data: { ...event.data, [first]: wrong } }), false);
  });
}

test("an event of an unknown type with a valid envelope passes", () => {
  assert.ok(validate({ v: 1, run: SAMPLE_RUN_ID, seq: 3, at: SAMPLE_AT, type: "review.posted", data: { stage: "plan", anything: [1] } }));
});

test("an event of an unknown type still needs a valid envelope", () => {
  const event = { v: 1, run: SAMPLE_RUN_ID, seq: 3, at: SAMPLE_AT, type: "review.posted", data: {} };
  for (const broken of [{ ...event, run: "run_1" }, { ...event, seq: 0 }, { ...event, at: "today" }, { ...event, type: "Stage" }, { ...event, data: [] }]) {
    assert.equal(validate(broken), false, JSON.stringify(broken));
  }
});

test("extra envelope fields pass: the feed's pos and number, and fields a later version adds", () => {
  const [first] = sampleEvents();
  assert.ok(validate({ ...first, pos: 1041, number: 7, trace_id: "t_1" }));
});

test("extra fields in data pass", () => {
  for (const event of sampleEvents()) assert.ok(validate({ ...event, data: { ...event.data, added_later: { x: 1 } } }), event.type);
});

test("an event over the size cap, with its data replaced by the truncation marker, passes for every type", () => {
  for (const event of sampleEvents()) {
    const capped: unknown = JSON.parse(serializeCapped(event, 100));
    assert.ok(validate(capped), `${event.type}: ${JSON.stringify(validate.errors)}`);
  }
  const [first] = sampleEvents();
  assert.equal(validate({ ...first, data: { truncated: true, original_bytes: "big", limit_bytes: 1 } }), false);
});

test("a known type is never accepted through the unknown-type branch", () => {
  for (const def of catalog) {
    assert.equal(validate({ v: 1, run: SAMPLE_RUN_ID, seq: 1, at: SAMPLE_AT, type: def.type, data: { unrelated: true } }), false, def.type);
  }
});
