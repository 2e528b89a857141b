import { checkReply, contentFromPairs, leaveReply, readReply, repliedAlready, type PersonReply } from "@baton/engine/input";
import { BatonError } from "@baton/engine";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { openProjectStore } from "../project-store.ts";
import { visibleText } from "../render/terminal-text.ts";
import { awaitEvent, runForRequest, whoAmI } from "./people-request.ts";

export type ReplyFlags = { decline?: boolean; cancel?: boolean; reason?: string };

/**
 * `baton reply RUN QUESTION [FIELD=VALUE…] [--decline | --cancel]`: answers a question the
 * agent asked through ACP elicitation. Checked first (the run runs, the question waits, the
 * values fill its form); the first reply wins and a second is a conflict naming the first.
 * Then waits for the run's `question.answered`.
 */
export async function replyCommand(ctx: CliContext, ref: string, question: string, pairs: readonly string[], flags: ReplyFlags): Promise<number> {
  if (flags.decline === true && flags.cancel === true) throw new BatonError("usage", "--decline and --cancel contradict each other", { hint: "pass one of them" });
  const action = flags.decline === true ? "decline" : flags.cancel === true ? "cancel" : "accept";
  if (action !== "accept" && pairs.length > 0) throw new BatonError("usage", `a ${action} carries no values`, { hint: `leave out ${pairs.join(" ")}, or --${action}` });
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await runForRequest(store, ref);
  const open = run.asked.open.get(question);
  const reply: PersonReply = { question, action, who: whoAmI(ctx), via: "cli" };
  if (action === "accept") reply.content = (open === undefined ? {} : contentFromPairs(question, open.fields, pairs)) as PersonReply["content"];
  if (flags.reason !== undefined) reply.reason = flags.reason;
  const checked = checkReply(run.state, run.asked, reply);
  if ((await leaveReply(run.dir, checked)) === "exists") {
    const first = await readReply(run.dir, question);
    throw repliedAlready(`run ${run.number}`, question, { action: first?.action ?? "answered", who: first?.who ?? "someone" });
  }
  const answered = await awaitEvent(store, run.id, run.state.last_seq, (event) => event.type === "question.answered" && event.data["id"] === question, ctx.signal);
  if (answered === undefined) {
    ctx.stdout.write(`left the reply (${action}) to question ${question} of run ${run.number}; the run has not taken it yet\n`);
    return EXIT.succeeded;
  }
  if (answered.data["by"] !== "human" || answered.data["who"] !== reply.who) throw repliedAlready(`run ${run.number}`, question, answered.data);
  ctx.stdout.write(`run ${run.number}: question ${visibleText(question)} ${String(answered.data["action"])} (by ${visibleText(reply.who)})\n`);
  return EXIT.succeeded;
}
