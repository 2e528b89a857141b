import assert from "node:assert/strict";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { stepNames } from "@baton/testkit";
import { cliEnv, makeRepo, runBaton, runIds, writeScript, type CliResult } from "./cli-harness.ts";

/** What a bad command must leave as it was: the run list and the run directories. */
async function snapshot(repo: string): Promise<{ runs: string; dirs: string[] }> {
  const runs = await runBaton(repo, ["runs", "--json"]);
  assert.equal(runs.code, 0, runs.stderr);
  return { runs: runs.stdout, dirs: await runIds(repo) };
}

/** Exit 2, nothing on stdout, one line on stderr naming the problem and the fix. */
function assertUsageError(result: CliResult, problem: RegExp, fix: RegExp): void {
  assert.equal(result.code, 2, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^baton: [^\n]+\n$/, "exactly one line on stderr");
  assert.match(result.stderr, problem);
  assert.match(result.stderr, fix);
}

test("bad input to baton run, show and events: exit 2, one line naming the problem and the fix, and nothing changed", async (t) => {
  const repo = await makeRepo("cli-bad-input-");
  const good = await writeScript(repo, "good.json", [{ say: "fine" }]);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", good, "--require-output", "none"])).code, 0);
  const unknownStep = await writeScript(repo, "unknown-step.json", [{ say: "fine" }, { wrte: { path: "a", content: "b" } }] as never);
  const notJson = join(repo, "not-json.json");
  await writeFile(notJson, '[{"say": "unfinished"');
  const before = await snapshot(repo);
  assert.equal(before.dirs.length, 1);

  const cases: Array<{ name: string; args: string[]; problem: RegExp; fix: RegExp }> = [
    { name: "an unknown run number", args: ["show", "999"], problem: /no run matches "999"/, fix: /baton runs/ },
    { name: "an unknown run id prefix", args: ["show", "nope"], problem: /no run matches "nope"/, fix: /baton runs/ },
    { name: "an unknown run to follow", args: ["events", "999", "--follow"], problem: /no run matches "999"/, fix: /baton runs/ },
    { name: "an unknown step", args: ["run", "--agent", "fake", "--script", unknownStep], problem: /step 2: unknown step "wrte"/, fix: /baton run --help/ },
    { name: "a script that is not JSON", args: ["run", "--agent", "fake", "--script", notJson], problem: /not-json\.json: not valid JSON/, fix: /fix the script/ },
    { name: "a missing script file", args: ["run", "--agent", "fake", "--script", "missing.json"], problem: /missing\.json: cannot read/, fix: /fix the script/ },
    { name: "no --script for the fake agent", args: ["run", "a task", "--agent", "fake"], problem: /the fake agent needs a script/, fix: /pass --script FILE/ },
    { name: "an unknown agent", args: ["run", "--agent", "nosuch", "--script", good], problem: /unknown agent "nosuch"/, fix: /known agents: .*fake/ },
    { name: "a cursor that is not a number", args: ["events", "1", "--after", "abc"], problem: /--after: "abc" is not a whole number from 0 to/, fix: /pass the last seq/ },
    { name: "a feed cursor that is not a number", args: ["events", "--after", "abc"], problem: /"abc" is not a whole number/, fix: /pass the last seq/ },
    { name: "a cursor beyond any safe integer", args: ["events", "--after", "99999999999999999999"], problem: /--after: "99999999999999999999" is not a whole number from 0 to 9007199254740991/, fix: /pass the last seq/ },
    { name: "--max-repeats above the config's 100", args: ["run", "--script", good, "--max-repeats", "101"], problem: /--max-repeats: "101" is not a whole number from 2 to 100/, fix: /like --max-repeats 5/ },
    { name: "a token budget in exponent notation", args: ["run", "--script", good, "--max-tokens", "1e3"], problem: /--max-tokens: "1e3" is not a whole number/, fix: /like --max-tokens 500000/ },
    { name: "an empty --model", args: ["run", "--script", good, "--model", ""], problem: /--model is empty/, fix: /give it a model name, or leave --model out/ },
    { name: "an empty --agent", args: ["run", "--script", good, "--agent", ""], problem: /--agent is empty/, fix: /leave --agent out/ },
    { name: "a timeout too long for a timer", args: ["run", "--script", good, "--timeout", "597h"], problem: /--timeout: "597h" is longer than 596h31m23s, the longest Baton's timers can wait/, fix: /give a shorter one/ },
    { name: "an unknown run status", args: ["runs", "--status", "bogus"], problem: /--status: "bogus" is not a run status/, fix: /pass one of created, running, paused, succeeded, stopped, failed, cancelled/ },
    { name: "an unknown output kind", args: ["run", "--script", good, "--require-output", "maybe"], problem: /--require-output: "maybe" is not an output kind/, fix: /pass one of change, none/ },
    { name: "a port out of range", args: ["serve", "--port", "70000"], problem: /--port: "70000" is not a whole number from 0 to 65535/, fix: /0 picks any free port/ },
    { name: "an empty cancel reason", args: ["cancel", "1", "--reason", ""], problem: /--reason is empty/, fix: /leave --reason out/ },
  ];
  for (const { name, args, problem, fix } of cases) {
    await t.test(name, async () => {
      assertUsageError(await runBaton(repo, args), problem, fix);
      assert.deepEqual(await snapshot(repo), before, "the run list and run directories are unchanged");
    });
  }

  await t.test("an invalid .baton/config.toml", async () => {
    const configPath = join(repo, ".baton", "config.toml");
    const config = await readFile(configPath, "utf8");
    try {
      await writeFile(configPath, "[session\ncancel_grace_ms = 5\n");
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /\.baton\/config\.toml:1:9: not valid TOML: illegal character in key/, /fix the file or remove it/);
      await writeFile(configPath, '[session]\ncancel_grace_ms = 5000\n\n[limits]\ntimeout = = "5m"\n');
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /\.baton\/config\.toml:5:11: not valid TOML: invalid value/, /fix the file or remove it/);
      assert.deepEqual(await snapshot(repo), before);
      await writeFile(configPath, '[limits]\ntimeout = "597h"\n');
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /config\.toml: limits\.timeout: "597h" is longer than 596h31m23s/, /see the comments/);
      assert.deepEqual(await snapshot(repo), before);
      await writeFile(configPath, '[session]\ncancel_grace_ms = "soon"\n');
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /config\.toml: session\.cancel_grace_ms: /, /see the comments/);
      assert.deepEqual(await snapshot(repo), before);
      await writeFile(configPath, '[[permissions.rules]]\nname = "x"\naction = "maybe"\n');
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /config\.toml: permissions\.rules\.0\.action: /, /see the comments/);
      assert.deepEqual(await snapshot(repo), before);
    } finally {
      await writeFile(configPath, config);
    }
  });

  await t.test("a config.toml that is a directory, or cannot be read", async () => {
    const configPath = join(repo, ".baton", "config.toml");
    const config = await readFile(configPath, "utf8");
    try {
      await rm(configPath);
      await mkdir(configPath);
      for (const args of [["run", "--agent", "fake", "--script", good], ["agents"]]) {
        assertUsageError(await runBaton(repo, args), /\.baton\/config\.toml is a directory, not a file/, /remove it \(or move it away\) to use the defaults/);
      }
      assert.deepEqual(await snapshot(repo), before);
      await rm(configPath, { recursive: true });
      await symlink(configPath, configPath);
      assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good]), /\.baton\/config\.toml cannot be read \(ELOOP\)/, /replace it with a readable config\.toml file/);
      assert.deepEqual(await snapshot(repo), before);
    } finally {
      await rm(configPath, { recursive: true, force: true });
      await writeFile(configPath, config);
    }
  });

  await t.test("a BATON_TIMEOUT too long for a timer", async () => {
    assertUsageError(await runBaton(repo, ["run", "--script", good], { env: cliEnv({ BATON_TIMEOUT: "597h" }) }), /BATON_TIMEOUT: "597h" is longer than 596h31m23s/, /give a shorter one/);
    assert.deepEqual(await snapshot(repo), before);
  });

  await t.test("usage errors of the command line itself", async () => {
    assertUsageError(await runBaton(repo, ["show"]), /missing required argument 'run'/, /--help/);
    assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", good, "--bogus"]), /unknown option '--bogus'/, /--help/);
    assertUsageError(await runBaton(repo, ["nosuch"]), /unknown command 'nosuch'/, /--help/);
    assertUsageError(await runBaton(repo, ["rnu"]), /unknown command 'rnu' \(Did you mean run\?\)/, /--help/);
    assert.deepEqual(await snapshot(repo), before);
  });
});

test("baton run in a git repository without .baton/ says to run baton init, and creates nothing", async () => {
  const repo = await makeRepo("cli-no-init-", { init: false });
  const script = await writeScript(repo, "good.json", [{ say: "fine" }]);
  const entries = await readdir(repo);

  assertUsageError(await runBaton(repo, ["run", "--agent", "fake", "--script", script]), /no \.baton\/ in /, /run `baton init` there first/);
  assertUsageError(await runBaton(repo, ["runs"]), /no \.baton\/ in /, /baton init/);
  assert.deepEqual(await readdir(repo), entries);
});

test("baton outside a git repository says so and how to fix it, and creates nothing", async () => {
  const dir = await testTempDir("cli-not-git-");
  const script = join(dir, "good.json");
  await writeFile(script, JSON.stringify([{ say: "fine" }]));

  assertUsageError(await runBaton(dir, ["run", "--agent", "fake", "--script", script]), /is not inside a git repository/, /git init/);
  assertUsageError(await runBaton(dir, ["init"]), /is not inside a git repository/, /git init/);
  assertUsageError(await runBaton(dir, ["events"]), /is not inside a git repository/, /git init/);
  assert.deepEqual(await readdir(dir), ["good.json"]);
});

test("baton --help and baton run --help exit 0 and explain the commands, the script steps and the exit codes", async () => {
  const dir = await testTempDir("cli-help-");
  const help = await runBaton(dir, ["--help"]);
  assert.equal(help.code, 0, help.stderr);
  for (const command of ["init", "run", "resume", "approve", "reject", "answer", "fork", "workflow", "runs", "show", "events", "cancel", "diff", "clean", "trace", "schema", "demo"]) {
    assert.match(help.stdout, new RegExp(`^  ${command}\\b`, "m"), `lists ${command}`);
  }
  assert.match(help.stdout, /Exit codes: 0 succeeded, 1 failed, 2 usage or configuration error, 3 stopped at a limit or by\s+the model provider \(work committed\), 4 a workflow run paused at a gate, 124 stopped at the\s+timeout \(work committed\), 130 cancelled/);

  const runHelp = await runBaton(dir, ["run", "--help"]);
  assert.equal(runHelp.code, 0, runHelp.stderr);
  assert.match(runHelp.stdout, /--script <file>/);
  for (const step of stepNames) assert.match(runHelp.stdout, new RegExp(`\\{"${step}": `), `explains the ${step} step`);
  assert.match(runHelp.stdout, /Exit codes: 0 succeeded, 1 failed, 2 usage or configuration error, 3 stopped at a limit or by\s+the model provider \(work committed\), 4 a workflow run paused at a gate, 124 stopped at the\s+timeout \(work committed\), 130 cancelled/);
  assert.equal(runHelp.stderr, "");
});
