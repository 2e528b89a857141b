import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHash, runHash } from "./use-hash-route.ts";

test("run pages are #/runs/REF; anything else is the run list", () => {
  assert.deepEqual(parseHash("#/runs/12"), { page: "run", ref: "12" });
  assert.deepEqual(parseHash(runHash("run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A")), { page: "run", ref: "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A" });
  assert.deepEqual(parseHash(runHash("a/b c")), { page: "run", ref: "a/b c" });
  for (const hash of ["", "#", "#/", "#/runs", "#/runs/", "#/runs/%E0%A4%A", "#/other/1"]) assert.deepEqual(parseHash(hash), { page: "runs" }, hash);
});
