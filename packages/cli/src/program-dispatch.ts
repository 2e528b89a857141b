import type { Command } from "commander";
import type { CliContext } from "./context.ts";
import type { CommandAction } from "./program-results.ts";
import { duration, nonEmpty, oneOf, positiveNumber, wholeNumber } from "./option-values.ts";
import type { SubmitOptions } from "./commands/submit.ts";
import type { WorkerFlags } from "./commands/worker.ts";

const DISPATCH_HELP = `
Dispatch: with a shared store (--store postgres://…, BATON_STORE or [store] url), a run can be
queued for workers instead of run here. baton worker, on any machine that reaches the store and
the repository's remote, claims queued runs, fetches the remote into a folder of its own (a
checkout per run), runs them, and pushes each run's branch back to the remote. A worker that
dies (no heartbeat for its lease, 30 s by default) loses its run to another worker, which records
worker.lost: a workflow run continues there from its last checkpoint on the remote, any other run
fails worker_lost. baton cancel RUN works from any machine. baton workers lists the live workers.
`;

/** Splits `--labels a,b` into words. */
function labelList(text: string): string[] {
  return text
    .split(",")
    .map((label) => label.trim())
    .filter((label) => label !== "");
}

/** The dispatch commands: submit (queue a run), worker (take runs), workers (list them). */
export function addDispatchCommands(program: Command, context: () => CliContext, action: CommandAction): void {
  program
    .command("submit")
    .description("Queue a run for the workers of the shared store (baton worker) instead of running it here; prints its number at once.")
    .argument("[task]", "what the agent should do (defaults to a description of the script)")
    .option("--agent <name>", "the agent to run; default: fake with --script, else default_agent from config", nonEmpty("--agent", "an agent name (baton agents lists them)"))
    .option("--model <model>", "the model the agent should use", nonEmpty("--model", "a model name"))
    .option("--script <file>", "the JSON script the fake agent plays (sent with the run: workers do not share files)", nonEmpty("--script", "a script file"))
    .option("--base <ref>", "the branch (or commit) the run starts from; it must be on the remote (default: the current branch)", nonEmpty("--base", "a branch or commit"))
    .option("--remote <url>", "the repository's remote the workers clone and push the run's branch to (default: origin's URL)", nonEmpty("--remote", "a git remote URL"))
    .option("--workflow <name|file>", "a workflow run: its stages run on a worker, which pushes the run's branch at each checkpoint; a lost worker's run continues from its last one elsewhere (the workflow is read and checked here, and sent with the run)", nonEmpty("--workflow", "a workflow name or file"))
    .option("--auto-approve", "with --workflow: every gate takes its first option (a worker has no one to ask)")
    .option("--label <label>", "only workers started with this label (baton worker --labels) claim the run", nonEmpty("--label", "a label"))
    .option("--timeout <duration>", "stop the run after this long (required, or BATON_TIMEOUT, or [limits] timeout: workers run unattended)", duration("--timeout"))
    .option("--max-cost <usd>", "stop the run at this much spend in USD", positiveNumber("--max-cost", { example: "2.5" }))
    .option("--max-tokens <n>", "stop the run at this many input + output tokens", wholeNumber("--max-tokens", { min: 1, example: 500_000 }))
    .option("--max-tool-calls <n>", "stop the run at this many tool calls", wholeNumber("--max-tool-calls", { min: 1, example: 200 }))
    .option("--require-output <kind>", "what the run must leave: change (the default) or none", oneOf("--require-output", "an output kind", ["change", "none"]))
    .option("--json", "print {run, number, job} as one JSON line")
    .addHelpText("after", DISPATCH_HELP)
    .action(action(async (task: string | undefined, opts: SubmitOptions) => (await import("./commands/submit.ts")).submitCommand(context(), task, opts)));

  program
    .command("worker")
    .description("Take runs queued in the shared store and run them here, --concurrency at a time, until stopped (Ctrl-C or SIGTERM cancels the runs in hand).")
    .option("--concurrency <n>", "runs at a time (default 1)", wholeNumber("--concurrency", { min: 1, max: 256, example: 4 }))
    .option("--labels <a,b>", "also take runs submitted with one of these labels", labelList)
    .option("--dir <dir>", "the worker's folder: clones of remotes, a checkout per run, local run files (default: .baton-worker)", nonEmpty("--dir", "a directory"))
    .option("--lease <duration>", "how long a run is held without a heartbeat before another worker may take it (default 30s)", duration("--lease"))
    .addHelpText("after", DISPATCH_HELP)
    .action(action(async (opts: WorkerFlags) => (await import("./commands/worker.ts")).workerCommand(context(), opts)));

  program
    .command("workers")
    .description("List the live workers of the shared store: their concurrency and labels, the runs each holds, their last heartbeat.")
    .option("--json", "one JSON object per worker (NDJSON)")
    .action(action(async (opts: { json?: boolean }) => (await import("./commands/workers.ts")).workersCommand(context(), opts)));
}
