import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { cliEnv, COMMAND_TIMEOUT_MS, linesOf, runBaton } from "./cli-harness.ts";

const exec = promisify(execFile);
const CHECKOUT = fileURLToPath(new URL("../../../../", import.meta.url)).replace(/\/$/, "");
const LAUNCHER = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));

/** The commands under "Where to look next:", as printed (their `# …` comments left out). */
function nextCommands(stdout: string): string[] {
  const lines = linesOf(stdout);
  const start = lines.indexOf("Where to look next:");
  assert.ok(start >= 0, `the demo says where to look next:\n${stdout}`);
  const commands: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break;
    commands.push(line.trim().replace(/\s+# .*$/, ""));
  }
  return commands;
}

/** The demo's closing line: where its repository stays, and how to remove it. */
function stayingRepository(stdout: string): string {
  const stays = /^The demo repository stays in (\S+); remove it with: rm -rf (\S+)$/m.exec(stdout);
  assert.ok(stays, `the demo says where its repository stays:\n${stdout}`);
  assert.equal(stays[2], stays[1]);
  assert.ok(existsSync(stays[1] as string), "and it is there");
  return stays[1] as string;
}

/** Runs each printed command as a user types it, in their shell, in their directory, and checks what it shows. */
async function runLiterally(commands: readonly string[], cwd: string, env: Record<string, string>): Promise<void> {
  const expected = [/succeeded/, /^status: +succeeded$/m, /run\.created/, /greet\.js/];
  assert.equal(commands.length, expected.length);
  for (const [index, command] of commands.entries()) {
    const { stdout } = await exec("sh", ["-c", command], { cwd, env, timeout: COMMAND_TIMEOUT_MS });
    assert.match(stdout, expected[index] as RegExp, `\`${command}\` in ${cwd}`);
  }
}

test("baton demo started by its path: the commands it prints work as printed from the user's directory; its repository stays and it says so", async () => {
  const tmp = await testTempDir("cli-demo-path-");
  const user = await testTempDir("cli-demo-user-");
  // No `baton` on this PATH: the printed commands must name the launcher itself.
  const env = cliEnv({ TMPDIR: tmp, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` });

  const demo = await runBaton(user, ["demo"], { env });

  assert.equal(demo.code, 0, demo.stderr);
  const repo = stayingRepository(demo.stdout);
  assert.ok(repo.startsWith(tmp));
  const commands = nextCommands(demo.stdout);
  assert.deepEqual(
    commands.map((command) => command.replace(` -C ${repo} `, " … ")),
    ["runs", "show 1", "events 1", "diff 1"].map((command) => `${LAUNCHER} … ${command}`),
  );
  await runLiterally(commands, user, env);
});

test("npm run demo in the checkout (the README's quick start): the commands it prints work as printed from there", async () => {
  const tmp = await testTempDir("cli-demo-npm-");
  const env = cliEnv({ TMPDIR: tmp });

  const { stdout } = await exec("npm", ["run", "-s", "demo"], { cwd: CHECKOUT, env, timeout: COMMAND_TIMEOUT_MS });

  const repo = stayingRepository(stdout);
  const commands = nextCommands(stdout);
  assert.deepEqual(
    commands.map((command) => command.replace(` -C ${repo} `, " … ")),
    ["runs", "show 1", "events 1", "diff 1"].map((command) => `npm run baton -- … ${command}`),
  );
  await runLiterally(commands, CHECKOUT, env);
});
