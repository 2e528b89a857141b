import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { unifiedDiff } from "./unified-diff.ts";

test("a new file is all additions against /dev/null", () => {
  assert.equal(unifiedDiff("a.txt", undefined, "one\ntwo\n"), "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two");
});

test("a change shows only its hunk with three lines of context", () => {
  const old = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].join("\n") + "\n";
  const now = old.replace("5\n", "five\n");
  assert.equal(unifiedDiff("n.txt", old, now), ["--- a/n.txt", "+++ b/n.txt", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"].join("\n"));
});

test("changes far apart make separate hunks; a missing final newline is marked", () => {
  const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const now = old.replace("l2\n", "L2\n").replace("l19\n", "").replace("l20\n", "l20");
  const diff = unifiedDiff("x", old, now);
  assert.equal((diff.match(/^@@/gm) ?? []).length, 2);
  assert.match(diff, /^-l19$/m);
  assert.match(diff, /^\+l20\n\\ No newline at end of file$/m);
});

test("the diff applies with git apply and gives the new text", async () => {
  const dir = await testTempDir("unified-diff-");
  await promisify(execFile)("git", ["init", "-q"], { cwd: dir });
  const old = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const lines = old.split("\n");
  lines.splice(10, 2, "inserted a", "inserted b", "inserted c");
  lines.splice(40, 1);
  const now = lines.join("\n");
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "src", "f.txt"), old);
  await writeFile(join(dir, "p.diff"), `${unifiedDiff("src/f.txt", old, now)}\n`);
  await promisify(execFile)("git", ["apply", "p.diff"], { cwd: dir });
  const { readFile } = await import("node:fs/promises");
  assert.equal(await readFile(join(dir, "src", "f.txt"), "utf8"), now);
});
