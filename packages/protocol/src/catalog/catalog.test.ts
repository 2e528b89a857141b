import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { SAMPLE_DATA, sampleEvents } from "../testing/sample-events.ts";
import {
  catalog,
  definitionOf,
  eventSchema,
  FINAL_TYPES,
  isEphemeralType,
  isFinalType,
  isTerminalType,
  TERMINAL_TYPES,
} from "./index.ts";

test("the sample fixture has one valid event of every catalog type", () => {
  assert.deepEqual(
    sampleEvents().map((event) => event.type),
    catalog.map((def) => def.type),
  );
  assert.deepEqual(Object.keys(SAMPLE_DATA).sort(), catalog.map((def) => def.type).sort());
});

test("catalog types are unique and dot-named in lower case", () => {
  const types = catalog.map((def) => def.type);
  assert.equal(new Set(types).size, types.length);
  for (const type of types) assert.match(type, /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/);
});

for (const event of sampleEvents()) {
  test(`${event.type} round-trips through eventSchema and JSON unchanged`, () => {
    const line = JSON.stringify(event);
    const parsed = eventSchema.parse(JSON.parse(line));
    assert.deepEqual(parsed, event);
    assert.equal(JSON.stringify(parsed), line);
  });

  test(`${event.type} keeps fields it does not know, in the envelope and in data`, () => {
    const newer = { ...event, trace_id: "t_1", data: { ...event.data, added_in_v1_9: { nested: [1, 2] } } };
    assert.deepEqual(eventSchema.parse(structuredClone(newer)), newer);
  });

  test(`${event.type} with a required field missing or of the wrong shape is rejected by eventSchema`, () => {
    const schema = z.toJSONSchema(definitionOf(event.type)!.data) as { required?: string[]; properties?: Record<string, { type?: string }> };
    const required = schema.required ?? [];
    assert.ok(required.length > 0);
    for (const field of required) {
      const data: Record<string, unknown> = { ...event.data };
      delete data[field];
      assert.equal(eventSchema.safeParse({ ...event, data }).success, false, `without ${field}`);
      // A map of any values (a context) takes any object: for it, a string is the wrong shape.
      data[field] = schema.properties?.[field]?.type === "object" ? "not an object" : { wrong: [] };
      assert.equal(eventSchema.safeParse({ ...event, data }).success, false, `with ${field} of the wrong shape`);
    }
  });
}

test("eventSchema rejects a type the catalog does not know: that is the reader's job to keep", () => {
  const [first] = sampleEvents();
  assert.equal(eventSchema.safeParse({ ...first, type: "review.posted" }).success, false);
});

test("optional fields are omitted, never null", () => {
  const completed = sampleEvents().find((event) => event.type === "tool.completed");
  assert.ok(completed);
  assert.equal(eventSchema.safeParse({ ...completed, data: { ...completed.data, exit_code: null } }).success, false);
});

test("terminal and final types: every final type is terminal, run.paused is terminal but not final", () => {
  for (const type of FINAL_TYPES) assert.ok(isTerminalType(type) && isFinalType(type), type);
  assert.ok(isTerminalType("run.paused"));
  assert.equal(isFinalType("run.paused"), false);
  for (const type of TERMINAL_TYPES) assert.ok(definitionOf(type), `${type} is in the catalog`);
  assert.equal(isTerminalType("run.started"), false);
  assert.equal(isFinalType("future.ended"), false);
});

test("only agent.delta is ephemeral, and unknown types are not", () => {
  assert.deepEqual(
    catalog.filter((def) => def.ephemeral).map((def) => def.type),
    ["agent.delta"],
  );
  assert.equal(isEphemeralType("agent.delta"), true);
  assert.equal(isEphemeralType("agent.message"), false);
  assert.equal(isEphemeralType("future.delta"), false);
});

test("definitionOf finds catalog entries and returns undefined for unknown types", () => {
  assert.equal(definitionOf("tool.completed")?.type, "tool.completed");
  assert.equal(definitionOf("tool.exploded"), undefined);
  assert.equal(definitionOf("__proto__"), undefined);
});

test("the zod-free core names exactly the catalog's ephemeral types", async () => {
  const { catalog, EPHEMERAL_TYPES } = await import("./index.ts");
  assert.deepEqual(
    catalog.filter((def) => def.ephemeral).map((def) => def.type).sort(),
    [...EPHEMERAL_TYPES].sort(),
  );
});

test("the zod-free core names every catalog type, in catalog order", async () => {
  const { catalog, EVENT_TYPES, isKnownType } = await import("./index.ts");
  assert.deepEqual(catalog.map((def) => def.type), [...EVENT_TYPES]);
  assert.equal(isKnownType("tool.exploded"), false);
});
