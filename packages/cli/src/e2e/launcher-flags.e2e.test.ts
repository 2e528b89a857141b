import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { LAUNCHER_BIN, makeRepo } from "./cli-harness.ts";

const run = promisify(execFile);

// Preloaded with --import: writes the process's pid and Node options to stderr as it exits.
const REPORTER = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => process.stderr.write("\\nEXEC " + JSON.stringify({ pid: process.pid, execArgv: process.execArgv }) + "\\n"));',
)}`;

/** bin/baton.js on this Node 24, as a user starts it: its exit report and its stdout. */
async function launch(repo: string, args: string[]): Promise<{ stdout: string; execArgv: string[]; reports: number }> {
  const { stdout, stderr } = await run(process.execPath, ["--import", REPORTER, LAUNCHER_BIN, "-C", repo, ...args], { encoding: "utf8" });
  const reports = [...stderr.matchAll(/^EXEC (.*)$/gm)].map((match) => JSON.parse(match[1] as string) as { pid: number; execArgv: string[] });
  const last = reports.at(-1);
  assert.ok(last !== undefined, `no exit report in: ${stderr}`);
  return { stdout, execArgv: last.execArgv, reports: reports.length };
}

test("baton events runs in the same process on memory-lean V8 flags, keeping Node's own options; other commands do not", async () => {
  const repo = await makeRepo("cli-launcher-flags-");
  const events = await launch(repo, ["events", "--json"]);
  assert.equal(events.stdout, "", "an empty feed prints nothing");
  assert.equal(events.reports, 1, "one process ends: the launcher replaced itself, it started no child");
  assert.ok(events.execArgv.includes("--max-opt=2") && events.execArgv.includes("--max-semi-space-size=1"), events.execArgv.join(" "));
  assert.ok(events.execArgv.includes(REPORTER), "Node's options given to the launcher are kept");

  const runs = await launch(repo, ["runs", "--json"]);
  assert.ok(!runs.execArgv.includes("--max-opt=2"), runs.execArgv.join(" "));
});
