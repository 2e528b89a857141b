import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields } from "./defined-fields.ts";

test("fields whose value is undefined are left out, every other value is kept", () => {
  const model: string | undefined = undefined;
  const built = definedFields({ task: "t", model, zero: 0, empty: "", none: null, no: false });
  assert.deepEqual(built, { task: "t", zero: 0, empty: "", none: null, no: false });
  assert.equal(Object.hasOwn(built, "model"), false);
});

test("a defined optional field is kept with its value", () => {
  const model: string | undefined = "m";
  const built: { task: string; model?: string } = definedFields({ task: "t", model });
  assert.deepEqual(built, { task: "t", model: "m" });
});
