import { BatonError, openStore, requestCancel } from "@baton/engine";
import { isFinalStatus, isFinalType } from "@baton/protocol";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";

/** How long `baton cancel` waits for the run to end before it reports that it asked. */
const CANCEL_WAIT_MS = 60_000;

export async function cancelCommand(ctx: CliContext, ref: string, options: { reason?: string }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openStore(project.batonDir);
  const run = store.resolveRun(ref);
  if (await store.recoverIfAbandoned(run.id)) {
    ctx.stdout.write(`run ${run.number} had no live process; it is now marked failed (interrupted)\n`);
    return EXIT.succeeded;
  }
  const current = store.getRun(run.id);
  if (current && isFinalStatus(current.status)) {
    throw new BatonError("run_ended", `run ${run.number} already ended (${current.status})`, { hint: "nothing to cancel" });
  }
  await requestCancel(store.runDir(run.id), { by: "cli", ...(options.reason === undefined ? {} : { reason: options.reason }) });
  ctx.stdout.write(`asked run ${run.number} to cancel; waiting for it to end…\n`);
  const timeout = AbortSignal.timeout(CANCEL_WAIT_MS);
  const signal = AbortSignal.any([timeout, ctx.signal]);
  for await (const event of store.followRun(run.id, { after: current?.last_seq ?? 0, signal })) {
    if (isFinalType(event.type)) {
      ctx.stdout.write(`run ${run.number} ended: ${visibleText(event.type)}\n`);
      return EXIT.succeeded;
    }
  }
  if (ctx.signal.aborted) {
    // Interrupted while waiting: the request stands, the run still ends cancelled.
    ctx.stdout.write(`stopped waiting: run ${run.number} was asked to cancel and has not ended yet\n`);
    return EXIT.cancelled;
  }
  ctx.stdout.write(`run ${run.number} has not ended yet; its process was asked to cancel\n`);
  return EXIT.succeeded;
}
