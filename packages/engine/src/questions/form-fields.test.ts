import assert from "node:assert/strict";
import { test } from "node:test";
import { formFields, isFillable } from "./form-fields.ts";

test("Claude Code's AskUserQuestion form reads as a one-of field and an optional text field per question, in order", () => {
  // As claude-agent-acp 0.101.0 builds it (askUserQuestionsToCreateRequest), for a multi-select and a single-select question.
  const schema = {
    type: "object",
    properties: {
      question_0: { type: "array", title: "Features", description: "Which features?", items: { anyOf: [{ const: "TTL", title: "TTL", description: "expire keys" }, { const: "LRU", title: "LRU", _meta: { x: 1 } }] } },
      question_0_custom: { type: "string", title: "Other", description: "Type your own answer to add to your selection above (optional)." },
      question_1: { type: "string", title: "Database", oneOf: [{ const: "PostgreSQL", title: "PostgreSQL" }, { const: "SQLite", title: "SQLite" }] },
    },
  };
  assert.deepEqual(formFields(schema), {
    fields: [
      { name: "question_0", type: "array", required: false, title: "Features", description: "Which features?", options: [{ value: "TTL", title: "TTL", description: "expire keys" }, { value: "LRU", title: "LRU" }] },
      { name: "question_0_custom", type: "string", required: false, title: "Other", description: "Type your own answer to add to your selection above (optional)." },
      { name: "question_1", type: "string", required: false, title: "Database", options: [{ value: "PostgreSQL", title: "PostgreSQL" }, { value: "SQLite", title: "SQLite" }] },
    ],
  });
});

test("bounds, formats, defaults and untitled enums are kept; required names are marked", () => {
  const { fields, unfillable } = formFields({
    properties: {
      email: { type: "string", format: "email", minLength: 3, maxLength: 80, pattern: "@", default: "a@b.c" },
      size: { type: "number", minimum: 0.5, maximum: 9, default: 1 },
      count: { type: "integer", minimum: 1 },
      ok: { type: "boolean", default: true },
      colour: { type: "string", enum: ["red", "green"] },
      tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b", "c"] }, default: ["a"] },
    },
    required: ["email", "ok"],
  });
  assert.equal(unfillable, undefined);
  assert.deepEqual(fields, [
    { name: "email", type: "string", required: true, min_length: 3, max_length: 80, pattern: "@", format: "email", default: "a@b.c" },
    { name: "size", type: "number", required: false, min: 0.5, max: 9, default: 1 },
    { name: "count", type: "integer", required: false, min: 1 },
    { name: "ok", type: "boolean", required: true, default: true },
    { name: "colour", type: "string", required: false, options: [{ value: "red" }, { value: "green" }] },
    { name: "tags", type: "array", required: false, options: [{ value: "a" }, { value: "b" }, { value: "c" }], min: 1, max: 2, default: ["a"] },
  ]);
});

test("a required field of a type Baton cannot fill, or one the form does not describe, makes it unfillable; an optional one is only recorded", () => {
  assert.match(formFields({ properties: { x: { type: "_colour" } }, required: ["x"] }).unfillable ?? "", /^field x is of type _colour, which Baton cannot fill$/);
  assert.match(formFields({ properties: {}, required: ["ghost"] }).unfillable ?? "", /requires ghost, which it does not describe/);
  assert.match(formFields({ properties: { tags: { type: "array", items: { type: "string" } } }, required: ["tags"] }).unfillable ?? "", /field tags is of type array/);
  const optional = formFields({ properties: { x: { type: "_colour" }, y: { type: "string" } } });
  assert.equal(optional.unfillable, undefined);
  assert.equal(isFillable(optional.fields[0]!), false);
  assert.equal(isFillable(optional.fields[1]!), true);
  assert.deepEqual(formFields(undefined), { fields: [] });
  assert.match(formFields({ properties: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, { type: "string" }])) }).unfillable ?? "", /65 fields, more than the 64/);
});
