import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { TEST_ROOT_ENV, testTempDir, UNVALIDATED_DIR } from "./temp-root.ts";

const here = fileURLToPath(new URL("./temp-root.ts", import.meta.url));

/** Runs testTempDir in a child with the given environment and returns the directory it made. */
function childTempDir(env: NodeJS.ProcessEnv, options = "{}"): string {
  const script = `import { testTempDir } from ${JSON.stringify(here)}; console.log(await testTempDir("probe-", ${options}));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env, encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  return child.stdout.trim();
}

test("under a suite root, test directories are made below it, and unvalidated ones in its own folder", async () => {
  const root = await mkdtemp(join(tmpdir(), "baton-root-probe-"));
  try {
    const env = { ...process.env, [TEST_ROOT_ENV]: root };
    const validated = childTempDir(env);
    assert.equal(dirname(validated), root);
    assert.ok((await stat(validated)).isDirectory(), "left in place for the suite-wide check");
    const unvalidated = childTempDir(env, "{ validateLogs: false }");
    assert.equal(dirname(unvalidated), join(root, UNVALIDATED_DIR));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("without a suite root, the directory lies in the OS temp dir and is removed when the process exits", () => {
  const env = { ...process.env };
  delete env[TEST_ROOT_ENV];
  const dir = childTempDir(env);
  assert.ok(dir.startsWith(tmpdir()));
  assert.equal(existsSync(dir), false);
});

test("each call gives a new directory", async () => {
  const [a, b] = await Promise.all([testTempDir("twice-"), testTempDir("twice-")]);
  assert.notEqual(a, b);
});
