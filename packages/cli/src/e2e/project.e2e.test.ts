import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadConfig, parseConfig } from "@baton/engine";
import { testTempDir } from "@baton/protocol/testing";
import { cliEnv, git, makeRepo, readEvents, runBaton, workspacePath } from "./cli-harness.ts";

const SCHEMA_FILE = fileURLToPath(new URL("../../../../docs/schema/events.v1.json", import.meta.url));

test("baton init creates .baton/ with config.toml and .gitignore; a second init changes nothing and says so", async () => {
  const repo = await makeRepo("cli-init-", { init: false });

  const first = await runBaton(repo, ["init"]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Initialised .*\.baton \(config\.toml, \.gitignore\)\./);
  const batonDir = join(repo, ".baton");
  assert.deepEqual((await readdir(batonDir)).filter((name) => name !== "runs").sort(), [".gitignore", "config.toml"]);
  const config = await readFile(join(batonDir, "config.toml"), "utf8");
  const ignore = await readFile(join(batonDir, ".gitignore"), "utf8");
  assert.deepEqual(await loadConfig(batonDir), parseConfig("", "empty.toml"), "the commented config parses to the defaults");
  // Only the settings are shared through git; run state stays out of it.
  assert.deepEqual((await git(repo, "status", "--porcelain", "--untracked-files=all")).trim().split("\n").sort(), ["?? .baton/.gitignore", "?? .baton/config.toml"]);

  const second = await runBaton(repo, ["init"]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /already initialised; nothing changed/);
  assert.equal(await readFile(join(batonDir, "config.toml"), "utf8"), config);
  assert.equal(await readFile(join(batonDir, ".gitignore"), "utf8"), ignore);
});

test("baton schema prints the committed JSON Schema (draft 2020-12)", async () => {
  const dir = await testTempDir("cli-schema-");
  const result = await runBaton(dir, ["schema"]);
  assert.equal(result.code, 0, result.stderr);
  const printed = JSON.parse(result.stdout) as { $schema?: string };
  assert.equal(printed.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(printed, JSON.parse(await readFile(SCHEMA_FILE, "utf8")));
});

test("baton demo runs the scripted agent in a throwaway repository; greet.js is written and works", async () => {
  // The demo makes its repository in the OS temp dir: point that at a test directory, so the
  // demo's run log is validated with the rest.
  const tmp = await testTempDir("cli-demo-tmp-");
  const result = await runBaton(tmp, ["demo"], { env: cliEnv({ TMPDIR: tmp }) });

  assert.equal(result.code, 0, result.stderr);
  const demoRepo = /^Demo repository: (.+)$/m.exec(result.stdout)?.[1];
  assert.ok(demoRepo !== undefined && demoRepo.startsWith(tmp), `the demo repository is under ${tmp}`);
  assert.match(result.stdout, /✔ succeeded · 4,210 in \/ 538 out tokens · \$0\.0207/);
  assert.match(result.stdout, /Where to look next:/);
  const [runId, ...others] = await readdir(join(demoRepo, ".baton", "runs"));
  assert.deepEqual(others, []);
  const events = await readEvents(demoRepo, runId as string);
  assert.equal(events.at(-1)?.type, "run.completed");
  // The agent worked in the run's own worktree, and Baton committed greet.js on its branch.
  const worktree = await workspacePath(demoRepo, runId as string);
  const greeting = await promisify(execFile)(process.execPath, ["greet.js", "Ada"], { cwd: worktree });
  assert.equal(greeting.stdout, "Hello, Ada!\n");
  const committed = events.find((event) => event.type === "git.committed")?.data as { branch?: string; files?: Array<{ path: string }> } | undefined;
  assert.ok(committed?.files?.some((file) => file.path === "greet.js"), "greet.js is in the run's commit");
  assert.match(await git(demoRepo, "show", `${committed?.branch ?? ""}:greet.js`), /Hello/);

  const show = await runBaton(demoRepo, ["show", "1"]);
  assert.match(show.stdout, /^status: +succeeded$/m);
});
