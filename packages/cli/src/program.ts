import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { REPEATS_RANGE } from "@baton/engine/bounds";
import { isBatonError } from "@baton/engine/errors";
import { RUN_STATUSES } from "@baton/protocol/core";
import type { RunOptions } from "./commands/run.ts";
import type { GateDecision } from "@baton/engine/workflow";
import { EXIT, type CliContext } from "./context.ts";
import { locateProject } from "./project.ts";
import { visibleText } from "./render/terminal-text.ts";
import { duration, each, nonEmpty, oneOf, positiveNumber, wholeNumber } from "./option-values.ts";
import { addPeopleCommands } from "./program-people.ts";
import { addResultCommands } from "./program-results.ts";
import { addDispatchCommands } from "./program-dispatch.ts";
import { VERSION } from "./version.ts";

const EXIT_HELP = `
Exit codes: 0 succeeded, 1 failed, 2 usage or configuration error, 3 stopped at a limit or by
the model provider (work committed), 4 a workflow run paused at a gate, 124 stopped at the
timeout (work committed), 130 cancelled.`;

type ResumeFlags = { json?: boolean; detach?: boolean; timeout?: number; autoApprove?: boolean };
type DecisionFlags = ResumeFlags & { comment?: string; by?: string; via?: "api" | "web" | "terminal" };

/** Who answers a gate from this terminal: the user's name, as git and the shell know it. */
function whoAmI(ctx: CliContext): string {
  return ctx.env["USER"] ?? ctx.env["LOGNAME"] ?? "unknown";
}

// Hidden options of approve|reject|answer for `baton serve` and `baton attach`, which record a decision made in
// the API, the web page or attach's terminal through the CLI: who (when the client names them) and where.
const byOption = () => new Option("--by <name>", "recorded as who decided").hideHelp().argParser(nonEmpty("--by", "a name"));
const viaOption = () => new Option("--via <surface>", "recorded as where the decision was made").hideHelp().argParser(oneOf("--via", "a decision surface", ["api", "web", "terminal"] as const));
const decisionOf = (ctx: CliContext, opts: DecisionFlags) => ({ comment: opts.comment, by: opts.by ?? whoAmI(ctx), via: opts.via ?? ("cli" as const) });

const LIMITS_HELP = `
Limits: --timeout, --max-cost, --max-tokens, --max-tool-calls, --max-requests (or [limits] in .baton/config.toml;
BATON_TIMEOUT sets a default timeout). A run with no terminal on stdin, or with --yes, is refused
without a timeout. At 60% and 80% of the most used limit Baton warns; at 95% it cancels the turn
and asks the agent to hand back what it has; at 100% it stops the run (exit 3, or 124 for the
timeout). Failed turns are sorted by provider-error class: rate_limited and unreachable are sent
again after 10, 20, 40 s (or the provider's retry-after up to 2 min), overloaded up to six times;
quota and unauthorized are handed back at once ([retry] in config changes the waits).

Through Baton's inference proxy (on by default; [proxy] in config), every model request is
counted, its tokens read and priced as it ends: --max-requests admits request n+1 never, and a
token or cost budget admits a request only while what is spent plus what the requests in flight
may spend is under it; a refused request is a 403 to the agent and the run stops at once.
Without the proxy, a token budget is checked whenever the agent's token counts arrive, so it can be overshot:
with claude and opencode, whose counts arrive when a turn ends, by up to one whole turn (every
model call in it); with codex, whose counts arrive after each model call, by about one call;
gemini reports none (a token budget is refused). \`baton agents\` shows each agent's (REPORTS
tokens/turn or tokens/call). A budget under 20,000 tokens is small against one turn of a coding
agent: Baton warns before the agent starts.
`;

const WORKSPACE_HELP = `
Workspace: each run works in its own git worktree, .baton/worktrees/<number>-<slug>, on its own
branch baton/<number>-<slug> made from HEAD (or --base). When the agent's work ends (succeeded,
failed or cancelled) Baton commits everything in the worktree on that branch. A repository with
uncommitted changes is refused unless --include-dirty copies them in. See the change with
\`baton diff RUN\`; remove finished runs' worktrees with \`baton clean\`.
`;

const WORKFLOW_HELP = `
Workflows: --workflow runs a graph of stages (agents, commands, gates) with a checkpoint after
each stage. A human gate pauses the run (exit 4): answer it with baton approve|reject|answer RUN.
baton resume RUN continues an interrupted or failed run after its last checkpoint. With the fake
agent, --script may hold one script per stage: {"stages": {"plan": [...], "build": [...]}}.
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
  {"model_call": {"parallel": 1}}      streamed Anthropic calls to ANTHROPIC_BASE_URL (the inference
                                       proxy, with proxy = { via = "env", … } in [agents.fake])
  {"sleep": 250}                       waits; a cancel ends it (a long one is a stalled turn)
  {"hang": 60000}                      waits, not answering a cancel until it is over
  {"wait_for": "path"}                 waits until that file exists; a cancel ends it
  {"wait_for_notice": "text"}          waits until a mid-turn prompt holds that text; a cancel ends it
  {"ask": {"message": "Which?", "schema": {…}}}   a question for a person (ACP elicitation, a form
                                       by JSON Schema; baton reply answers it); asked only of a
                                       run a person can answer, unless "regardless": true
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
    .option("-C, --cwd <dir>", "run as if started in <dir>", nonEmpty("--cwd", "a directory"))
    .option("--store <url>", "where the runs are: a PostgreSQL URL (postgres://user@host:5432/db) shared by many machines; default: BATON_STORE, [store] url in config, else the embedded store in .baton/", nonEmpty("--store", "a store URL"))
    .addHelpText("after", EXIT_HELP)
    // Before any subcommand is added: commander copies these settings into each subcommand
    // when it is created. A usage error is one line, like every other error.
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
      // commander's errors quote the arguments as typed.
      outputError: (text, write) => write(`baton: ${visibleText(text.trim().replace(/^error: /, "").replaceAll(/\s*\n\s*/g, " "))}: run with --help for usage\n`),
    })
    .exitOverride();
  const context = (): CliContext => {
    const { cwd: dir, store } = program.opts<{ cwd?: string; store?: string }>();
    // --store reaches the commands, and the `baton` children a server starts, as BATON_STORE.
    const withStore = store === undefined ? ctx : { ...ctx, env: { ...ctx.env, BATON_STORE: store } };
    return dir === undefined ? withStore : { ...withStore, cwd: resolve(ctx.cwd, dir) };
  };
  const action =
    <A extends unknown[]>(fn: (...args: A) => Promise<number>) =>
    async (...args: A) =>
      setExit(await fn(...args));
  // git finds the project while the command's modules load (they are most of its start-up);
  // the command awaits it and meets its error, if any.
  const locateEarly = () => {
    const located = locateProject(context().cwd);
    located.catch(() => {});
    return located;
  };
  const resume = async (ref: string, opts: ResumeFlags | DecisionFlags, decision?: GateDecision) => {
    const located = locateEarly();
    return (await import("./commands/resume.ts")).resumeCommand(context(), ref, opts, decision, located);
  };

  program
    .command("init")
    .description("Create .baton/ in the current git repository: a commented config.toml and a .gitignore.")
    .action(action(async () => (await import("./commands/init.ts")).initCommand(context())));

  program
    .command("run")
    .description("Run an agent on a task in this repository and record the run's events; live progress by default.")
    .argument("[task]", "what the agent should do (defaults to a description of the script)")
    .option("--agent <name>", "the agent to run (`baton agents` lists them); default: fake with --script, else default_agent from config", nonEmpty("--agent", "an agent name (baton agents lists them)"))
    .option("--model <model>", "the model the agent should use; the run fails if the agent reports another", nonEmpty("--model", "a model name"))
    .option("--script <file>", "the JSON script the fake agent plays", nonEmpty("--script", "a script file"))
    .option("--json", "print every durable event as NDJSON on stdout, and nothing else")
    .option("--base <ref>", "start the run's branch from this branch, tag or commit instead of HEAD", nonEmpty("--base", "a branch, tag or commit"))
    .option(
      "--include-dirty",
      "copy the repository's uncommitted changes (staged, unstaged, untracked) into the run's worktree; they are not committed until the run ends, and then become part of the run's commit",
    )
    .option("--in-place", "work in the repository itself: no worktree, no branch, no commit")
    .option("--worktree", "work in a worktree of its own even when config.toml says [workspace] mode = \"in_place\"")
    .option("--timeout <duration>", "stop the run after this long, waits included: 90s, 30m, 2h, at most 596h31m23s (exit 124)", duration("--timeout"))
    .option("--max-cost <usd>", "stop the run when the agent reports this much spend in USD (exit 3)", positiveNumber("--max-cost", { example: "2.5" }))
    .option("--max-tokens <n>", "stop the run at this many input + output tokens (exit 3); it can be overshot by one turn, or one model call (see Limits)", wholeNumber("--max-tokens", { min: 1, example: 500_000 }))
    .option("--max-tool-calls <n>", "stop the run at this many tool calls (exit 3)", wholeNumber("--max-tool-calls", { min: 1, example: 200 }))
    .option(
      "--max-requests <n>",
      "allow the agent this many model requests, counted at Baton's inference proxy: request n+1 is refused before it reaches the provider and the run stops (exit 3)",
      wholeNumber("--max-requests", { min: 1, example: 200 }),
    )
    .option(
      "--max-repeats <n>",
      `the same tool call with the same result this many times in a row (${REPEATS_RANGE.min} to ${REPEATS_RANGE.max}) is a loop: notice, then hand-back`,
      wholeNumber("--max-repeats", { ...REPEATS_RANGE, example: 5 }),
    )
    .option("--require-output <kind>", "what the run must leave: change (a change in its workspace; the default) or none", oneOf("--require-output", "an output kind", ["change", "none"]))
    .option("--fallback-model <model>", "switch to this model, once, when the provider stays overloaded", nonEmpty("--fallback-model", "a model name"))
    .option("-y, --yes", "run unattended: never wait for a person (a timeout is then required)")
    .option("--workflow <name|file>", "walk a workflow's stages (.baton/workflows/NAME.dot, a file, or the built-in single); see docs/workflows.md")
    .option("--auto-approve", "with --workflow: every human gate takes its first option (for CI)")
    .option("--detach", "queue the run for the workers of the shared store (baton worker; needs --store postgres://…) and return at once, as baton submit does")
    .option("--validate <command>", "a command that must pass after the agent's work (repeatable, after [validation] commands); a failure goes back to the agent to fix", each(nonEmpty("--validate", "a shell command")), [] as string[])
    .option("--merge", "when the run succeeds (validation passed), merge its branch into its base branch; the base checked out in your tree must be clean")
    .option("--merge-strategy <strategy>", "how --merge lands: merge (a merge commit; the default), squash (one commit) or ff-only", oneOf("--merge-strategy", "a merge strategy", ["merge", "squash", "ff-only"]))
    .option("--pr", "when the run succeeds (validation passed), push its branch to [delivery] remote (origin) and open a GitHub pull request (with --workflow pipeline: its delivery does); the token comes from GITHUB_TOKEN or GH_TOKEN")
    .option("--draft", "with --pr: open the pull request as a draft")
    .addHelpText("after", WORKSPACE_HELP + LIMITS_HELP + WORKFLOW_HELP + STEPS_HELP)
    .action(
      action(async (task: string | undefined, opts: RunOptions & { workflow?: string; autoApprove?: boolean; detach?: boolean }) =>
        opts.detach === true
          ? (await import("./commands/run-detach.ts")).runDetachCommand(context(), task, opts)
          : opts.workflow === undefined
          ? (async () => {
              const located = locateEarly();
              return (await import("./commands/run.ts")).runCommand(context(), task, opts, located);
            })()
          : (await import("./commands/run-workflow.ts")).runWorkflowCommand(context(), task, { ...opts, workflow: opts.workflow }),
      ),
    );

  program
    .command("resume")
    .description("Continue a paused, interrupted or failed workflow run after its last checkpoint, in the same run and log.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--json", "print the run's new events as NDJSON")
    .option("--detach", "leave it running in the background")
    .option("--timeout <duration>", "stop the resumed run after this long: 90s, 30m, 2h", duration("--timeout"))
    .option("--auto-approve", "every later gate takes its first option")
    .action(action(async (ref: string, opts: ResumeFlags) => resume(ref, opts)));

  for (const [name, description] of [
    ["approve", "Approve the gate a paused workflow run waits at (its first option that is not a way back), and resume the run."],
    ["reject", "Reject the gate a paused workflow run waits at (its way back, or the gate fails), and resume the run."],
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument("<run>", "a run number, a run id, or a unique id prefix")
      .option("--comment <text>", "recorded with the decision")
      .option("--json", "print the run's new events as NDJSON")
      .option("--detach", "leave the resumed run in the background")
      .addOption(byOption())
      .addOption(viaOption())
      .action(
        action(async (ref: string, opts: DecisionFlags) =>
          resume(ref, opts, { kind: name, ...decisionOf(ctx, opts) }),
        ),
      );
  }

  program
    .command("answer")
    .description("Answer the gate a paused workflow run waits at with one of its options (label or key), or free text at a freeform gate, and resume the run.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .argument("<answer>", "an option's label or accelerator key, or free text")
    .option("--comment <text>", "recorded with the decision")
    .option("--json", "print the run's new events as NDJSON")
    .option("--detach", "leave the resumed run in the background")
    .addOption(byOption())
    .addOption(viaOption())
    .action(
      action(async (ref: string, value: string, opts: DecisionFlags) =>
        resume(ref, opts, { kind: "answer", value, ...decisionOf(ctx, opts) }),
      ),
    );

  program
    .command("fork")
    .description("Start a new run from a checkpoint of a workflow run (a failed one too): a new branch at the checkpoint's commit, its context, the stages after it.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .requiredOption("--at <stage[@visit]>", "the checkpoint: a stage id, and which visit of it (default: its last); baton show RUN lists them", nonEmpty("--at", "a stage id"))
    .option("--json", "print the new run's events as NDJSON")
    .option("--timeout <duration>", "stop the new run after this long: 90s, 30m, 2h (exit 124)", duration("--timeout"))
    .option("--auto-approve", "every gate of the new run takes its first option")
    .option("-y, --yes", "run unattended: never wait for a person (a timeout is then required)")
    .action(
      action(async (ref: string, opts: { at: string; json?: boolean; timeout?: number; autoApprove?: boolean; yes?: boolean }) =>
        (await import("./commands/fork.ts")).forkCommand(context(), ref, opts),
      ),
    );

  program
    .command("agents")
    .description("List the agents Baton can start: installed or not, version, command line, environment passed, how --model reaches each, what it reports, how it reaches the inference proxy.")
    .option("--json", "one JSON object per agent (NDJSON)")
    .action(action(async (opts: { json?: boolean }) => (await import("./commands/agents.ts")).agentsCommand(context(), opts)));

  const store = program
    .command("store")
    .description("The store of runs when it is PostgreSQL (--store, BATON_STORE or [store] url): its schema.");
  store
    .command("migrate")
    .description("Create or upgrade Baton's schema in the store's database (safe to run again, and from several machines at once); refuses a schema newer than this Baton.")
    .action(action(async () => (await import("./commands/store.ts")).storeMigrateCommand(context())));
  store
    .command("status")
    .description("The store's schema version, its runs, and its feed: the last position, the committed events waiting for one, and the oldest open transaction, which holds the feed back while it lasts.")
    .option("--json", "one JSON object")
    .action(action(async (opts: { json?: boolean }) => (await import("./commands/store.ts")).storeStatusCommand(context(), opts)));

  program
    .command("runs")
    .description("List runs: number, id, status, start time, duration, task.")
    .option("--status <status>", `only runs with this status: ${RUN_STATUSES.join(", ")}`, oneOf("--status", "a run status", RUN_STATUSES))
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
    .option("--after <n>", "only events after this seq (or pos, for the feed)", wholeNumber("--after", { min: 0, example: 0, hint: "pass the last seq (or pos) you saw, or 0" }), 0)
    .option("--follow", "keep waiting for new events; a run's stream ends after its final event")
    .option("--json", "raw envelopes as NDJSON")
    .option("--deltas", "with --follow RUN: also the text the agent streams (agent.delta, no seq; best-effort, never replayed)")
    .action(
      action(async (ref: string | undefined, opts: { after: number; follow?: boolean; json?: boolean; deltas?: boolean }) =>
        (await import("./commands/events.ts")).eventsCommand(context(), ref, opts),
      ),
    );

  program
    .command("cancel")
    .description("Cancel a running run from another process, and wait for it to end.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--reason <text>", "recorded in run.cancelled", nonEmpty("--reason", "the reason"))
    .action(action(async (ref: string, opts: { reason?: string }) => (await import("./commands/cancel.ts")).cancelCommand(context(), ref, opts)));

  addPeopleCommands(program, context, action);

  addResultCommands(program, context, action);
  addDispatchCommands(program, context, action);

  program
    .command("serve")
    .description("Serve the HTTP API, resumable live event streams and the web UI, on 127.0.0.1 by default.")
    .option("--port <port>", "port to listen on (0: any free port)", wholeNumber("--port", { min: 0, max: 65_535, example: 7317, hint: "0 picks any free port" }), 7317)
    .option("--host <host>", "address to listen on; one other than loopback needs --allow-remote", nonEmpty("--host", "an address"), "127.0.0.1")
    .option("--allow-host <name>", "also accept this name in the Host header (repeatable)", each(nonEmpty("--allow-host", "a host name")), [] as string[])
    .option("--allow-remote", "allow a --host that other machines can reach")
    .option("--otel", "also export every run's spans over OTLP/HTTP as they happen ([otel] in config, OTEL_EXPORTER_OTLP_*), resuming from the cursor kept in .baton/")
    .addHelpText("after", "\nBATON_SERVE_TOKEN=T sets the token (default: a new random one per start), so a URL stays valid across restarts.")
    .action(
      action(async (opts: { port: number; host: string; allowHost: string[]; allowRemote?: boolean; otel?: boolean }) => (await import("./commands/serve.ts")).serveCommand(context(), opts)),
    );

  const workflow = program
    .command("workflow")
    .description("Check, show and draw workflow graphs (DOT files, or names in .baton/workflows/): see docs/workflows.md.");
  workflow
    .command("check")
    .description("Check a workflow: every problem with its file, line, column, rule and fix (exit 2 on an error).")
    .argument("<workflow>", "a .dot or .fabro file, or a name in .baton/workflows/ (or the built-in single)")
    .option("--json", "the diagnostics as one JSON object")
    .action(action(async (ref: string, opts: { json?: boolean }) => (await import("./commands/workflow.ts")).workflowCheckCommand(context(), ref, opts)));
  workflow
    .command("show")
    .description("Print a workflow's stages (handler, label, agent and model after the stylesheet) and edges (labels, conditions).")
    .argument("<workflow>", "a .dot or .fabro file, or a name in .baton/workflows/")
    .option("--json", "the definition as JSON, with each stage's resolved agent and model")
    .action(action(async (ref: string, opts: { json?: boolean }) => (await import("./commands/workflow.ts")).workflowShowCommand(context(), ref, opts)));
  workflow
    .command("graph")
    .description("Print the workflow as plain DOT, or drawn as SVG by Graphviz (WebAssembly) with --svg.")
    .argument("<workflow>", "a .dot or .fabro file, or a name in .baton/workflows/")
    .option("--svg", "draw it: SVG instead of DOT")
    .option("--out <file>", "write to this file instead of stdout")
    .action(action(async (ref: string, opts: { svg?: boolean; out?: string }) => (await import("./commands/workflow.ts")).workflowGraphCommand(context(), ref, opts)));

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
      // A message may quote what was typed (a run ref), a file name, git's or an agent's words.
      ctx.stderr.write(`baton: ${visibleText(error.toLine())}\n`);
      return EXIT.usage;
    }
    // A full disk, a read-only or failing one, a damaged index met outside the store's own
    // checks: one line as well. Loaded only on this path, it costs the other commands nothing.
    const failure = (await import("@baton/engine/store")).storeFailure(error);
    if (failure !== undefined) {
      ctx.stderr.write(`baton: ${visibleText(failure.toLine())}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
