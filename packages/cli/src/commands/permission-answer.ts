import { BatonError } from "@baton/engine";
import { answeredAlready, checkPersonAnswer, leaveAnswer, readAnswer, type PersonAnswer } from "@baton/engine/input";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";
import { awaitEvent, runForRequest, whoAmI } from "./people-request.ts";
import { openProjectStore } from "../project-store.ts";

export type PermissionAnswerFlags = { alwaysForRun?: boolean; reason?: string; option?: string };

/**
 * `baton allow|deny RUN CALL`: answers a permission question an `ask` rule put to a person.
 * Checked first (the run runs, the call waits, an `--option` fits); the first answer wins and
 * a second is a conflict naming the first. Then waits for the run's `permission.resolved`.
 */
export async function permissionAnswerCommand(ctx: CliContext, action: "allow" | "deny", ref: string, call: string, flags: PermissionAnswerFlags): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await runForRequest(store, ref);
  const answer: PersonAnswer = { call, action, who: whoAmI(ctx), via: "cli" };
  if (flags.option !== undefined) answer.optionId = flags.option;
  if (flags.alwaysForRun === true) answer.alwaysForRun = true;
  if (flags.reason !== undefined) answer.reason = flags.reason;
  checkPersonAnswer(run.state, run.questions, answer);
  if ((await leaveAnswer(run.dir, answer)) === "exists") {
    const first = await readAnswer(run.dir, call);
    throw new BatonError("answer_conflict", `run ${run.number}: call ${call} was answered already (${first?.action ?? "answered"} by ${first?.who ?? "someone"}); this answer changed nothing`, {
      hint: "the first answer stands",
    });
  }
  const resolved = await awaitEvent(store, run.id, run.state.last_seq, (event) => event.type === "permission.resolved" && event.data["call"] === call, ctx.signal);
  if (resolved === undefined) {
    ctx.stdout.write(`left the answer (${action}) for call ${call} of run ${run.number}; the run has not taken it yet\n`);
    return EXIT.succeeded;
  }
  if (resolved.data["by"] !== "human" || resolved.data["who"] !== answer.who) throw answeredAlready(`run ${run.number}`, call, resolved.data);
  ctx.stdout.write(`run ${run.number}: call ${visibleText(call)} ${String(resolved.data["decision"])} (${action} by ${visibleText(answer.who)})\n`);
  return EXIT.succeeded;
}
