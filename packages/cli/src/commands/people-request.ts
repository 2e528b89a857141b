import type { Store } from "@baton/engine/store";
import { askedLog, questionLog, type AskedLog, type QuestionLog } from "@baton/engine/input";
import { applyEvent, initialRunState, type Envelope, type RunState } from "@baton/protocol/core";
import type { CliContext } from "../context.ts";

/** How long `baton steer|allow|deny` waits to see the run take its request. */
export const TAKEN_WAIT_MS = 15_000;

/** Who a person at this terminal is: the OS user, as git and the shell know it. */
export function whoAmI(ctx: CliContext): string {
  return ctx.env["USER"] ?? ctx.env["LOGNAME"] ?? "unknown";
}

/** A run as a person's request meets it: its folded state, its permission questions and the agent's questions, brought up to date. */
export async function runForRequest(store: Store, ref: string): Promise<{ id: string; number: number; dir: string; state: RunState; questions: QuestionLog; asked: AskedLog }> {
  const run = await store.resolveRun(ref);
  await store.recoverIfAbandoned(run.id);
  const state = initialRunState();
  const events: Envelope[] = [];
  for await (const event of store.readRun(run.id, { after: 0 })) {
    applyEvent(state, event);
    events.push(event);
  }
  return { id: run.id, number: run.number, dir: store.runDir(run.id), state, questions: questionLog(events), asked: askedLog(events) };
}

/** The first event after `after` that `matches`, or undefined when the wait runs out (or the run ends first). */
export async function awaitEvent(store: Store, runId: string, after: number, matches: (event: Envelope) => boolean, signal: AbortSignal): Promise<Envelope | undefined> {
  const timeout = AbortSignal.any([AbortSignal.timeout(TAKEN_WAIT_MS), signal]);
  for await (const event of store.followRun(runId, { after, signal: timeout })) {
    if (matches(event)) return event;
    if (event.type === "run.completed" || event.type === "run.failed" || event.type === "run.cancelled") return undefined;
  }
  return undefined;
}
