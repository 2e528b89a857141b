import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { isBatonError } from "@baton/engine/errors";
import type { RunOptions } from "./commands/run.ts";
import { EXIT, type CliContext } from "./context.ts";
import { VERSION } from "./version.ts";

const EXIT_HELP = `
Exit codes: 0 succeeded, 1 failed, 2 usage or configuration error, 3 stopped at a limit or by
the model provider (work committed), 124 stopped at the timeout (work committed), 130 cancelled.`;

const LIMITS_HELP = `
Limits: --timeout, --max-cost, --max-tokens, --max-tool-calls (or [limits] in .baton/config.toml;
BATON_TIMEOUT sets a default timeout). A run with no terminal on stdin, or with --yes, is refused
without a timeout. At 60% and 80% of the most used limit Baton warns; at 95% it cancels the turn
and asks the agent to hand back what it has; at 100% it stops the run (exit 3, or 124 for the
timeout). Failed turns are sorted by provider-error class: rate_limited and unreachable are sent
again after 10, 20, 40 s (or the provider's retry-after up to 2 min), overloaded up to six times;
quota and unauthorized are handed back at once ([retry] in config changes the waits).
`;

const WORKSPACE_HELP = `
Workspace: each run works in its own git worktree, .baton/worktrees/<number>-<slug>, on its own
branch baton/<number>-<slug> made from HEAD (or --base). When the agent's work ends (succeeded,
failed or cancelled) Baton commits everything in the worktree on that branch. A repository with
uncommitted changes is refused unless --include-dirty copies them in. See the change with
\`baton diff RUN\`; remove finished runs' worktrees with \`baton clean\`.
`;

const STEPS_HELP = `
Script steps for --agent fake (a JSON array, played for the first prompt):
  {"say": "text"}                      streamed message chunks
  {"think": "text"}                    streamed reasoning chunks
  {"plan": [{"content": "…", "status": "pending"}]}
  {"write": {"path": "rel/path", "content": "…"}}   an edit tool call (asks permission)
  {"write_anywhere": {"path": "/abs/or/../path", "content": "…"}}   a write that may leave the cwd
  {"delete": "rel/path"}               a delete tool call (asks permission)
  {"move": {"from": "a", "to": "b"}}   a move tool call (asks permission)
  {"run": "shell command"}             an execute tool call (asks permission)
  {"usage": {"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}}
  {"sleep": 250}                       waits; a cancel ends it (a long one is a stalled turn)
  {"hang": 60000}                      waits, not answering a cancel until it is over
  {"wait_for": "path"}                 waits until that file exists; a cancel ends it
  {"stderr": "API Error: 529"}         a line on the agent's stderr (then {"crash": 1}: died of it)
  {"flood": 10000}  {"stop": "max_tokens"}  {"crash": 3}
  {"fail": {"code": -32603, "message": "…"}}
  {"repeat": {"times": 300, "steps": [{"run": "npm test"}]}}   its steps that many times (1-10000)
  {"update": {"sessionUpdate": "…"}}   a raw session update (for testing unknown updates)
  {"ext": {"method": "_x/y", "params": {}}}   an extension notification
${EXIT_HELP}`;

/**
 * Builds the `baton` command tree; every action returns its exit code through `setExit`.
 * Each command's module is imported when its action runs, not up front, so that a command
 * loads only what it needs: `baton events` needs neither the ACP SDK, the agent runner nor
 * the fake agent (resident memory and startup: bench/store/follow-memory.bench.ts).
 */
export function buildProgram(ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command("baton")
    .description("Run AI coding agents on tasks in git repositories, recording every run as a durable event stream.")
    .version(VERSION)
    .option("-C, --cwd <dir>", "run as if started in <dir>")
    .addHelpText("after", EXIT_HELP)
    // Before any subcommand is added: commander copies these settings into each subcommand
    // when it is created. A usage error is one line, like every other error.
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
      outputError: (text, write) => write(`baton: ${text.trim().replace(/^error: /, "").replaceAll(/\s*\n\s*/g, " ")}: run with --help for usage\n`),
    })
    .exitOverride();
  const context = (): CliContext => {
    const dir = program.opts<{ cwd?: string }>().cwd;
    return dir === undefined ? ctx : { ...ctx, cwd: resolve(ctx.cwd, dir) };
  };
  const action =
    <A extends unknown[]>(fn: (...args: A) => Promise<number>) =>
    async (...args: A) =>
      setExit(await fn(...args));

  program
    .command("init")
    .description("Create .baton/ in the current git repository: a commented config.toml and a .gitignore.")
    .action(action(async () => (await import("./commands/init.ts")).initCommand(context())));

  program
    .command("run")
    .description("Run an agent on a task in this repository and record the run's events; live progress by default.")
    .argument("[task]", "what the agent should do (defaults to a description of the script)")
    .option("--agent <name>", "the agent to run (`baton agents` lists them); default: fake with --script, else default_agent from config")
    .option("--model <model>", "the model the agent should use; the run fails if the agent reports another")
    .option("--script <file>", "the JSON script the fake agent plays")
    .option("--json", "print every durable event as NDJSON on stdout, and nothing else")
    .option("--base <ref>", "start the run's branch from this branch, tag or commit instead of HEAD")
    .option(
      "--include-dirty",
      "copy the repository's uncommitted changes (staged, unstaged, untracked) into the run's worktree; they are not committed until the run ends, and then become part of the run's commit",
    )
    .option("--in-place", "work in the repository itself: no worktree, no branch, no commit")
    .option("--worktree", "work in a worktree of its own even when config.toml says [workspace] mode = \"in_place\"")
    .option("--timeout <duration>", "stop the run after this long, waits included: 90s, 30m, 2h (exit 124)")
    .option("--max-cost <usd>", "stop the run when the agent reports this much spend in USD (exit 3)")
    .option("--max-tokens <n>", "stop the run at this many input + output tokens (exit 3)")
    .option("--max-tool-calls <n>", "stop the run at this many tool calls (exit 3)")
    .option("--max-repeats <n>", "the same tool call with the same result this many times in a row is a loop: notice, then hand-back")
    .option("--require-output <kind>", "what the run must leave: change (a change in its workspace; the default) or none")
    .option("--fallback-model <model>", "switch to this model, once, when the provider stays overloaded")
    .option("-y, --yes", "run unattended: never wait for a person (a timeout is then required)")
    .addHelpText("after", WORKSPACE_HELP + LIMITS_HELP + STEPS_HELP)
    .action(
      action(async (task: string | undefined, opts: RunOptions) => (await import("./commands/run.ts")).runCommand(context(), task, opts)),
    );

  program
    .command("agents")
    .description("List the agents Baton can start: installed or not, version, command line, environment passed, how --model reaches each.")
    .option("--json", "a JSON array, one object per agent")
    .action(action(async (opts: { json?: boolean }) => (await import("./commands/agents.ts")).agentsCommand(context(), opts)));

  program
    .command("runs")
    .description("List runs: number, id, status, start time, duration, task.")
    .option("--status <status>", "only runs with this status (running, succeeded, failed, cancelled, …)")
    .option("--json", "one JSON object per run (NDJSON)")
    .action(action(async (opts: { json?: boolean; status?: string }) => (await import("./commands/runs.ts")).runsCommand(context(), opts)));

  program
    .command("show")
    .description("Show one run: status, usage, cost, event and tool-call counts, errors.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--json", "the run's folded state as JSON")
    .action(action(async (ref: string, opts: { json?: boolean }) => (await import("./commands/show.ts")).showCommand(context(), ref, opts)));

  program
    .command("events")
    .description("Print a run's events by seq; without RUN, the feed of all runs by pos (each tagged with pos and number).")
    .argument("[run]", "a run number, a run id, or a unique id prefix")
    .option("--after <n>", "only events after this seq (or pos, for the feed)", "0")
    .option("--follow", "keep waiting for new events; a run's stream ends after its final event")
    .option("--json", "raw envelopes as NDJSON")
    .option("--deltas", "with --follow RUN: also the text the agent streams (agent.delta, no seq; best-effort, never replayed)")
    .action(
      action(async (ref: string | undefined, opts: { after?: string; follow?: boolean; json?: boolean; deltas?: boolean }) =>
        (await import("./commands/events.ts")).eventsCommand(context(), ref, opts),
      ),
    );

  program
    .command("cancel")
    .description("Cancel a running run from another process, and wait for it to end.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--reason <text>", "recorded in run.cancelled")
    .action(action(async (ref: string, opts: { reason?: string }) => (await import("./commands/cancel.ts")).cancelCommand(context(), ref, opts)));

  program
    .command("diff")
    .description("Show a run's change: its commit against its base, or the uncommitted changes while it runs or in place.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--stat", "a summary of the files changed instead of the diff")
    .action(action(async (ref: string, opts: { stat?: boolean }) => (await import("./commands/diff.ts")).diffCommand(context(), ref, opts)));

  program
    .command("clean")
    .description(
      "Remove the worktrees of finished runs (all of them, or RUN), prune git's worktree list, and delete each run's branch when it holds nothing unmerged into its base.",
    )
    .argument("[run]", "a run number, a run id, or a unique id prefix (default: every finished run)")
    .action(action(async (ref: string | undefined) => (await import("./commands/clean.ts")).cleanCommand(context(), ref)));

  program
    .command("trace")
    .description("Print the complete output of one tool call of a run, from the run's trace store.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .argument("<call>", "the tool call id (as in tool.started and tool.completed)")
    .action(action(async (ref: string, call: string) => (await import("./commands/trace.ts")).traceCommand(context(), ref, call)));

  program
    .command("serve")
    .description("Serve the HTTP API, resumable live event streams and the web UI, on 127.0.0.1 by default.")
    .option("--port <port>", "port to listen on (0: any free port)", "7317")
    .option("--host <host>", "address to listen on; one other than loopback needs --allow-remote", "127.0.0.1")
    .option("--allow-host <name>", "also accept this name in the Host header (repeatable)", (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option("--allow-remote", "allow a --host that other machines can reach")
    .addHelpText("after", "\nBATON_SERVE_TOKEN=T sets the token (default: a new random one per start), so a URL stays valid across restarts.")
    .action(
      action(async (opts: { port: string; host: string; allowHost: string[]; allowRemote?: boolean }) => (await import("./commands/serve.ts")).serveCommand(context(), opts)),
    );

  program
    .command("schema")
    .description("Print the JSON Schema (draft 2020-12) of the event envelope and catalog.")
    .action(action(async () => (await import("./commands/schema.ts")).schemaCommand(context())));

  program
    .command("demo")
    .description("Run the scripted agent on a small task in a throwaway sample repository.")
    .option("--json", "print the demo run's events as NDJSON")
    .action(action(async (opts: { json?: boolean }) => (await import("./commands/demo.ts")).demoCommand(context(), opts)));

  return program;
}

/** Runs the CLI and returns the exit code. Expected failures are one line on stderr. */
export async function main(argv: readonly string[], ctx: CliContext): Promise<number> {
  let code: number = EXIT.succeeded;
  const program = buildProgram(ctx, (value) => (code = value));
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.succeeded : EXIT.usage;
    }
    if (isBatonError(error)) {
      ctx.stderr.write(`baton: ${error.toLine()}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
