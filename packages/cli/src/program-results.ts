import type { Command } from "commander";
import type { CliContext } from "./context.ts";
import { httpUrl, nonEmpty, oneOf, wholeNumber } from "./option-values.ts";

/** Wraps a command's function: its exit code becomes the process's. */
export type CommandAction = <A extends unknown[]>(fn: (...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/** The commands that read or deliver what a run produced: diff, clean, merge, pr, artifacts, trace, transcript, otel export. */
export function addResultCommands(program: Command, context: () => CliContext, action: CommandAction): void {
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
    .command("merge")
    .description("Merge an ended run's branch into its base branch, as a short run of the built-in deliver workflow that names it; the base checked out in your tree must be clean.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--strategy <strategy>", "merge (a merge commit), squash (one commit) or ff-only; default: [delivery] strategy", oneOf("--strategy", "a merge strategy", ["merge", "squash", "ff-only"]))
    .option("--json", "print the delivery run's events as NDJSON")
    .action(action(async (ref: string, opts: { strategy?: "merge" | "squash" | "ff-only"; json?: boolean }) => (await import("./commands/merge.ts")).mergeCommand(context(), ref, opts)));

  program
    .command("pr")
    .description("Push an ended run's branch to [delivery] remote (origin) and open a GitHub pull request for it (token from GITHUB_TOKEN or GH_TOKEN), as a short run of the built-in deliver workflow that names it.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--draft", "open it as a draft (default: [delivery] draft)")
    .option("--remote <name>", "the git remote to push to (default: [delivery] remote)", nonEmpty("--remote", "a git remote's name"))
    .option("--json", "print the delivery run's events as NDJSON")
    .action(action(async (ref: string, opts: { draft?: boolean; remote?: string; json?: boolean }) => (await import("./commands/pr.ts")).prCommand(context(), ref, opts)));

  program
    .command("artifacts")
    .description("List the files a run captured ([artifacts] include): path, size, media type, stage, and the copy kept in the run's folder by sha256.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--json", "one JSON object per file (NDJSON)")
    .action(action(async (ref: string, opts: { json?: boolean }) => (await import("./commands/artifacts.ts")).artifactsCommand(context(), ref, opts)));

  program
    .command("trace")
    .description("Print the complete output of one tool call of a run, from the run's trace store.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .argument("<call>", "the tool call id (as in tool.started and tool.completed)")
    .option("--stage <stage>", "STAGE or STAGE@VISIT: the call of that id made in this stage, when several stages of a workflow run have one", nonEmpty("--stage", "a stage id"))
    .option("--seq <n>", "the seq of the call's tool.completed event, when several calls have the id", wholeNumber("--seq", { min: 1, example: 42 }))
    .action(
      action(async (ref: string, call: string, opts: { stage?: string; seq?: number }) => (await import("./commands/trace.ts")).traceCommand(context(), ref, call, opts)),
    );

  program
    .command("transcript")
    .description("Render a run's transcript from its log and trace store: its task, turns, prose, reasoning and tool calls (collapsed), tokens and cost, and outcome.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--format <format>", "md (GitHub-flavoured Markdown) or html (a page that loads nothing)", oneOf("--format", "a transcript format", ["md", "html"] as const), "md")
    .option("--max-bytes <n>", "bound it to N bytes, as summary.md is: prose first, then heads and tails of tool blocks", wholeNumber("--max-bytes", { min: 4_096, example: 1_000_000, hint: "GitHub's step summaries take at most 1048576 bytes" }))
    .option("--out <file>", "write it to FILE instead of stdout", nonEmpty("--out", "a file name"))
    .addHelpText("after", "\nEvery run also leaves .baton/runs/<id>/transcript.md (complete) and summary.md (under 1 MiB), appended to $GITHUB_STEP_SUMMARY when it is set.\nForeign text (agent prose, tool output, file names, the task) is escaped: it renders as text, never as HTML, images or links.")
    .action(
      action(async (ref: string, opts: { format: "md" | "html"; maxBytes?: number; out?: string }) => (await import("./commands/transcript.ts")).transcriptCommand(context(), ref, opts)),
    );

  const otel = program.command("otel").description("OpenTelemetry traces of runs, built from their logs: see the README's OpenTelemetry section.");
  otel
    .command("export")
    .description("Send the spans of RUN (or, with --feed, of every run) to an OTLP/HTTP collector, one accepted batch at a time.")
    .argument("[run]", "a run number, a run id, or a unique id prefix")
    .option("--feed", "every run's spans, in the order the store committed their events (cursor: pos)")
    .option("--after <cursor>", "only spans that end after this seq (RUN) or pos (--feed); the last export printed it", wholeNumber("--after", { min: 0, example: 0, hint: "pass the cursor the last export printed, or 0" }), 0)
    .option("--follow", "go on as new events are committed: until the run ends (RUN), or Ctrl-C (--feed); a collector that is down is tried again until it takes the batch")
    .option("--endpoint <url>", "the collector's traces URL (default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, [otel] endpoint, http://localhost:4318/v1/traces)", httpUrl("--endpoint"))
    .addHelpText("after", "\nSpans: the run (invoke_workflow for a workflow), stages, invoke_agent per prompt turn, execute_tool per tool call, chat per model call through the inference proxy; permissions, limits, retries and stalls as span events.\nIds come from the run id and the seq of each span's first event: exporting again sends the same ids.\nHeaders and encoding: [otel] in .baton/config.toml, OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_PROTOCOL.")
    .action(
      action(async (ref: string | undefined, opts: { feed?: boolean; after: number; endpoint?: string; follow?: boolean }) => (await import("./commands/otel.ts")).otelExportCommand(context(), ref, opts)),
    );
}
