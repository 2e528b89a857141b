import { existsSync } from "node:fs";
import { BatonError, requestCancel } from "@baton/engine";
import { isFinalStatus, isFinalType } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** How long `baton cancel` waits for the run to end before it reports that it asked. */
const CANCEL_WAIT_MS = 60_000;

export async function cancelCommand(ctx: CliContext, ref: string, options: { reason?: string }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  if (await store.recoverIfAbandoned(run.id)) {
    ctx.stdout.write(`run ${run.number} had no live process; it is now marked failed (interrupted)\n`);
    return EXIT.succeeded;
  }
  const current = await store.getRun(run.id);
  if (current && isFinalStatus(current.status)) {
    throw new BatonError("run_ended", `run ${run.number} already ended (${current.status})`, { hint: "nothing to cancel" });
  }
  const request = definedFields({ by: "cli", reason: options.reason });
  // A shared store's run may be on a worker on another machine: the request goes in the store.
  if ("queueRun" in store) {
    const { cancelSharedRun, dispatchTimingFrom, dispatchingStore } = await import("@baton/engine/dispatch");
    const outcome = await cancelSharedRun(dispatchingStore(store) as NonNullable<ReturnType<typeof dispatchingStore>>, run.id, request, { timing: dispatchTimingFrom(ctx.env) });
    if (outcome === "ended") {
      ctx.stdout.write(`run ${run.number} was waiting for a worker: it is cancelled and its job removed\n`);
      return EXIT.succeeded;
    }
  }
  // The run's folder is on the machine of the process running it: on a shared store, perhaps not this one.
  const dir = store.runDir(run.id);
  if (!("queueRun" in store) || existsSync(dir)) await requestCancel(dir, request);
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
