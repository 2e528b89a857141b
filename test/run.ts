// The suite's test command: `node --test` with a fresh BATON_TEST_ROOT, then a check that every
// run log the tests left below that root is a valid log of schema-valid events.
//
//   node test/run.ts [node --test options (--name=value) and globs]
//
// A launcher rather than --test-global-setup: node runs a failing global teardown twice and
// prints nothing of its error, and here the check's report comes after node's summary lines.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { TEST_ROOT_ENV } from "@baton/protocol/testing";
import { formatReport, logValidator, SCHEMA_FILE } from "./validate-logs.ts";

// node ignores options given after the first file, and `npm run test:unit -- --opt=x` appends
// them there: move them in front (so they must use the --name=value form).
const args = process.argv.slice(2);
// A test that never settles fails after ten minutes (naming itself) rather than holding the
// whole suite until CI gives up; a test may set a timeout of its own, and --test-timeout wins.
const DEFAULT_TEST_TIMEOUT = "--test-timeout=600000";
const options = args.filter((arg) => arg.startsWith("-"));
if (!options.some((arg) => arg.startsWith("--test-timeout"))) options.unshift(DEFAULT_TEST_TIMEOUT);
// Every test file's process gets a watchdog that ends it, naming what holds it, past a bound.
const watchdog = `--import=${pathToFileURL(join(import.meta.dirname, "file-watchdog.ts")).href}`;
const nodeArgs = [watchdog, "--test", ...options, ...args.filter((arg) => !arg.startsWith("-"))];

const root = await mkdtemp(join(tmpdir(), "baton-test-"));
const child = spawn(process.execPath, nodeArgs, {
  stdio: "inherit",
  env: { ...process.env, NODE_OPTIONS: withSourceCondition(process.env.NODE_OPTIONS), [TEST_ROOT_ENV]: root },
});
// Ctrl-C reaches the child through the terminal; a plain kill of this process is passed on, and
// either way the root is still checked and removed once the child is gone.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const testsPassed = await new Promise<boolean>((resolve) => {
  child.on("error", (error) => {
    console.error(`could not start node --test: ${error.message}`);
    resolve(false);
  });
  child.on("exit", (code, signal) => {
    if (signal !== null) console.error(`node --test was killed by ${signal}`);
    resolve(code === 0);
  });
});

let logsValid = false;
try {
  const report = await (await logValidator())(root);
  const lines = formatReport(report, relative(process.cwd(), SCHEMA_FILE) || SCHEMA_FILE);
  logsValid = report.problems.length === 0;
  for (const line of lines) (logsValid ? console.log : console.error)(line);
} catch (error) {
  console.error(`✖ the run logs under ${root} could not be validated: ${(error as Error).stack ?? String(error)}`);
}
if (logsValid) await rm(root, { recursive: true, force: true });
else console.error(`kept ${root} for inspection`);
process.exitCode = testsPassed && logsValid ? 0 : 1;

/**
 * NODE_OPTIONS that resolve workspace packages to their sources (the "@baton/source" export
 * condition) in every test process and the processes the tests start, as the checkout's .npmrc
 * does for npm scripts: this script may have been started without npm.
 */
function withSourceCondition(options: string | undefined): string {
  const flag = "--conditions=@baton/source";
  if (options === undefined || options === "") return flag;
  return options.split(/\s+/).includes(flag) ? options : `${options} ${flag}`;
}
