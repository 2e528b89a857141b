import assert from "node:assert/strict";
import { test } from "node:test";
import { diffLines } from "./diff-lines.ts";

test("hunks become numbered lines of their kind", () => {
  assert.deepEqual(diffLines("@@ -3,2 +3,2 @@ fn\n keep\n-old\n+new\n\\ No newline at end of file"), [
    { kind: "hunk", text: "@@ -3,2 +3,2 @@ fn" },
    { kind: "ctx", text: "keep", old: 3, new: 3 },
    { kind: "del", text: "old", old: 4 },
    { kind: "add", text: "new", new: 4 },
    { kind: "note", text: "\\ No newline at end of file" },
  ]);
  assert.deepEqual(diffLines(""), []);
});
