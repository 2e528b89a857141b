import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { demoScript } from "@baton/testkit/demo";
import type { CliContext } from "../context.ts";
import { batonInvocation, LAUNCHER } from "../invocation.ts";
import { shellQuote } from "../shell-quote.ts";
import { initCommand } from "./init.ts";
import { runCommand } from "./run.ts";

const git = promisify(execFile);

const SAMPLE_README = "# greeter\n\nA tiny sample project for the Baton demo.\n";
/** The demo plays a short script; a stuck demo must still end. */
const DEMO_TIMEOUT_MS = 5 * 60_000;
const DEMO_TASK = "Add a greet.js that prints a greeting, and check that it runs.";

/**
 * The quick-start demo: a throwaway git repository, `baton init`, and a run of the scripted
 * agent doing a small coding task with live progress. No model and no keys needed.
 */
export async function demoCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "baton-demo-"));
  await writeFile(join(dir, "README.md"), SAMPLE_README);
  for (const args of [["init", "-q", "-b", "main"], ["add", "README.md"], ["-c", "user.name=Baton Demo", "-c", "user.email=demo@baton.invalid", "commit", "-q", "-m", "Sample project"]]) {
    await git("git", args, { cwd: dir });
  }
  const inDemo: CliContext = { ...ctx, cwd: dir };
  if (!options.json) ctx.stdout.write(`Demo repository: ${shellQuote(dir)}\n`);
  await initCommand({ ...inDemo, stdout: options.json ? ctx.stderr : ctx.stdout }, { hints: false });
  // Inside .baton/ (ignored), so the repository stays clean for the run's worktree.
  const scriptPath = join(dir, ".baton", "demo-script.json");
  await writeFile(scriptPath, `${JSON.stringify(demoScript, null, 2)}\n`);
  const code = await runCommand(inDemo, DEMO_TASK, { agent: "fake", script: scriptPath, json: options.json ?? false, hints: false, timeout: DEMO_TIMEOUT_MS });
  const stays = `The demo repository stays in ${shellQuote(dir)}; remove it with: rm -rf ${shellQuote(dir)}\n`;
  if (options.json) {
    ctx.stderr.write(stays);
    return code;
  }
  const baton = batonInvocation({ env: ctx.env, launcher: LAUNCHER });
  const next = [
    ["runs", "the run list"],
    ["show 1", "status, usage, cost, counts"],
    ["events 1", "every event, by seq"],
    ["diff 1", "what the agent wrote, committed on its branch"],
  ].map(([command, what]) => [`${baton} -C ${shellQuote(dir)} ${command}`, what] as const);
  const width = Math.max(...next.map(([command]) => command.length));
  ctx.stdout.write(["", "Where to look next:", ...next.map(([command, what]) => `  ${command.padEnd(width)}  # ${what}`), "", stays].join("\n"));
  return code;
}
