import assert from "node:assert/strict";
import { test } from "node:test";
import { parseUnifiedDiff } from "./diff-files.ts";

const TEXT = [
  "diff --git a/src/a.ts b/src/a.ts",
  "index 1111111..2222222 100644",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -1,2 +1,2 @@",
  " keep",
  "-old",
  "+new",
  "+++plus line",
  "diff --git a/new.txt b/new.txt",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new.txt",
  "@@ -0,0 +1 @@",
  "+hello",
  "\\ No newline at end of file",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-bye",
  "diff --git a/old name.txt b/new name.txt",
  "similarity index 90%",
  "rename from old name.txt",
  "rename to new name.txt",
  'diff --git "a/caf\\303\\251.png" "b/caf\\303\\251.png"',
  "new file mode 100644",
  "Binary files /dev/null and \"b/caf\\303\\251.png\" differ",
  "",
].join("\n");

test("git's diff is split into files with their added and removed lines and hunks", () => {
  const files = parseUnifiedDiff(TEXT);
  assert.deepEqual(
    files.map(({ patch: _patch, ...file }) => file),
    [
      { path: "src/a.ts", change: "modified", binary: false, added: 2, removed: 1, truncated: false },
      { path: "new.txt", change: "added", binary: false, added: 1, removed: 0, truncated: false },
      { path: "gone.txt", change: "deleted", binary: false, added: 0, removed: 1, truncated: false },
      { path: "new name.txt", old_path: "old name.txt", change: "renamed", binary: false, added: 0, removed: 0, truncated: false },
      { path: "café.png", change: "added", binary: true, added: 0, removed: 0, truncated: false },
    ],
  );
  assert.equal(files[0]!.patch, "@@ -1,2 +1,2 @@\n keep\n-old\n+new\n+++plus line");
  assert.equal(files[1]!.patch, "@@ -0,0 +1 @@\n+hello\n\\ No newline at end of file");
  assert.equal(files[4]!.patch, "");
});

test("patches are cut at the size limits, whole lines, and say so; the counts stay whole", () => {
  const big = ["diff --git a/big b/big", "--- a/big", "+++ b/big", "@@ -0,0 +1,100 @@", ...Array.from({ length: 100 }, (_, i) => `+line ${i}`), ""].join("\n");
  const [file] = parseUnifiedDiff(`${big}${big.replaceAll("big", "bag")}`, { filePatchChars: 300, totalPatchChars: 400 });
  assert.equal(file!.added, 100);
  assert.equal(file!.truncated, true);
  assert.ok(file!.patch.length <= 300);
  assert.ok(file!.patch.split("\n").every((line) => /^(@@ .* @@|\+line \d+)$/.test(line)), "only whole lines");
  const both = parseUnifiedDiff(`${big}${big.replaceAll("big", "bag")}`, { filePatchChars: 300, totalPatchChars: 400 });
  assert.ok(both[1]!.patch.length <= 400 - both[0]!.patch.length);
  assert.equal(both[1]!.truncated, true);
});

test("text that is not a diff gives no files", () => {
  assert.deepEqual(parseUnifiedDiff(""), []);
  assert.deepEqual(parseUnifiedDiff("hello\n+not a file\n"), []);
});
