import type { Command } from "commander";
import type { CliContext } from "./context.ts";
import type { CommandAction } from "./program-results.ts";
import { nonEmpty } from "./option-values.ts";

/** The commands a person uses on a running run: steer, attach, tui, allow, deny and reply. */
export function addPeopleCommands(program: Command, context: () => CliContext, action: CommandAction): void {
  program
    .command("steer")
    .description("Send text to a running run's agent: mid-turn to an agent that takes notices, else when its turn ends.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .argument("<text>", "what to tell the agent (redacted; at most [input] max_chars, 4000 by default)")
    .addHelpText(
      "after",
      `
The text reaches the agent behind a note saying it comes from a person watching the run.
An agent whose entry takes notices gets it at once, beside its running turn; any other at the
end of its turn, as a turn of its own (or with the next agent stage's prompt). The run records
input.queued, then input.delivered or input.rejected (too_long, too_many waiting, not_running).
A run that is not running is refused (exit 2) and nothing is left for it.`,
    )
    .action(action(async (ref: string, text: string) => (await import("./commands/steer.ts")).steerCommand(context(), ref, text)));

  program
    .command("attach")
    .description("Replay a run's live view and follow it: type to steer its agent, answer its questions inline.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .option("--cancel-on-exit", "cancel the run when you leave (Ctrl-C), instead of leaving it running")
    .addHelpText(
      "after",
      `
A typed line is sent to the agent (as baton steer does). When the run waits for a person it
asks inline: a permission question (/allow, /always, /deny [reason]), the agent's question
(/reply FIELD=VALUE …, /decline [reason]) or a gate (/approve, /reject, /answer CHOICE). /cancel cancels the run; /help lists the commands. Ctrl-C detaches
and the run goes on (baton attach RUN again to come back); with --cancel-on-exit it is
cancelled. When the run ends, attach exits with the run's exit code.`,
    )
    .action(action(async (ref: string, opts: { cancelOnExit?: boolean }) => (await import("./commands/attach.ts")).attachCommand(context(), ref, opts)));

  program
    .command("tui")
    .description("Runs in a terminal UI: a live run list, and each run's timeline, stages, plan, tool calls, usage and cost.")
    .option("--url <url>", "read a baton serve server instead of this project's store (the URL it printed)", nonEmpty("--url", "a URL"))
    .option("--token <token>", "the server's token (default: the URL's ?token=, else BATON_SERVE_TOKEN)", nonEmpty("--token", "a token"))
    .addHelpText(
      "after",
      `
Keys: ↑/↓ (j/k) move, Enter open a run, Esc back, q quit, ? help. In a run: Tab (or 1-5) picks
a panel (timeline, stages, plan, tools, usage); in tools, Enter opens a call's whole output.
c cancels the run; a/d allow or deny the permission question that waits; r types a reply to the
agent's question (FIELD=VALUE …), x declines it; y/n approve or reject the gate it waits at, t
types an answer to it; s types a line to steer the agent (Enter sends,
Esc drops it). It needs a terminal; it works over SSH, without a mouse, and redraws on resize.`,
    )
    .action(action(async (opts: { url?: string; token?: string }) => (await import("./commands/tui.ts")).tuiCommand(context(), opts)));

  for (const kind of ["allow", "deny"] as const) {
    const command = program
      .command(kind)
      .description(kind === "allow" ? "Allow a tool call a permission rule asks a person about (action = \"ask\")." : "Deny a tool call a permission rule asks a person about (action = \"ask\").")
      .argument("<run>", "a run number, a run id, or a unique id prefix")
      .argument("<call>", "the tool call's id, as permission.requested names it (baton attach and baton events show it)")
      .option("--option <id>", "one of the options the agent offered, by id (of the answer's kind)", nonEmpty("--option", "an option id"));
    if (kind === "allow") command.option("--always-for-run", "also allow later calls of the same kind and target in this run, without asking");
    else command.option("--reason <text>", "recorded in permission.resolved", nonEmpty("--reason", "the reason"));
    command
      .addHelpText(
        "after",
        `
The first answer wins; a second one is refused as a conflict (exit 2), naming the first. A
question nobody answers within [permissions] ask_timeout (10m by default) is denied.`,
      )
      .action(
        action(async (ref: string, call: string, opts: { option?: string; alwaysForRun?: boolean; reason?: string }) =>
          (await import("./commands/permission-answer.ts")).permissionAnswerCommand(context(), kind, ref, call, opts),
        ),
      );
  }

  program
    .command("reply")
    .description("Answer a question the agent asked (ACP elicitation, like Claude Code's AskUserQuestion): fill its form, or decline it.")
    .argument("<run>", "a run number, a run id, or a unique id prefix")
    .argument("<question>", "the question's id, as question.asked names it (baton attach and baton events show it)")
    .argument("[values...]", "FIELD=VALUE for each field to fill (one per value chosen of a several-of field)")
    .option("--decline", "turn the question down: the agent is told the user declined")
    .option("--cancel", "dismiss the question: the agent is told the user cancelled it")
    .option("--reason <text>", "recorded in question.answered", nonEmpty("--reason", "the reason"))
    .addHelpText(
      "after",
      `
Values are checked against the question's form before anything is left: every field named must
be one of the form's, of its type (a number, true or false, one of its options), and every
required field given; otherwise one line names the field and what it takes (exit 2). The first
reply wins; a second is refused as a conflict (exit 2), naming the first. A question nobody
answers within [permissions] ask_timeout (10m by default) is declined, and one asked of an
unattended run (--yes, a worker) is declined at once.`,
    )
    .action(
      action(async (ref: string, question: string, values: string[], opts: { decline?: boolean; cancel?: boolean; reason?: string }) =>
        (await import("./commands/question-reply.ts")).replyCommand(context(), ref, question, values, opts),
      ),
    );
}
