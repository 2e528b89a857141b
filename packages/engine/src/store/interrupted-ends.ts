import { definedFields, type OpenStart, type RunState } from "@baton/protocol/core";

/** The error code of the ends that recovery appends, on `run.failed` and on each start it closes. */
export const INTERRUPTED_CODE = "interrupted";

/** An event to append: its type and data. */
export type PendingEvent = { type: string; data: Record<string, unknown> };

/**
 * The events that end a run whose writer died, in the order they are appended: an end for each
 * start the log leaves open (innermost first: permission requests, tool calls, turns, then
 * agent sessions; within each kind in start order), then `run.failed` with code `interrupted`.
 * Each end says why (`error`, where its type has one) and takes the time from its start to
 * `nowMs`. `sessions` gives each session's usage for its `agent.finished` (from the run-state
 * fold of the same log).
 *
 * @example
 * interruptedEnds(openStartsOf(events), foldRun(events).sessions, "the writer (pid 42) died", Date.now());
 */
export function interruptedEnds(open: readonly OpenStart[], sessions: RunState["sessions"], message: string, nowMs: number): PendingEvent[] {
  const error = { code: INTERRUPTED_CODE, message };
  const since = (start: OpenStart) => Math.max(0, nowMs - (Date.parse(start.at) || nowMs));
  const ofType = (type: OpenStart["type"]) => open.filter((start) => start.type === type);
  const ends: PendingEvent[] = [];
  for (const start of ofType("permission.requested")) {
    ends.push({ type: "permission.resolved", data: { session: start.session ?? "", call: start.call ?? "", decision: "cancelled", by: "policy", rule: INTERRUPTED_CODE } });
  }
  for (const start of ofType("tool.started")) {
    ends.push({
      type: "tool.completed",
      data: {
        session: start.session ?? "",
        call: start.call ?? "",
        tool: start.tool ?? "",
        status: "cancelled",
        is_error: true,
        duration_ms: since(start),
        output_chars: 0,
        error,
      },
    });
  }
  for (const start of ofType("turn.started")) {
    ends.push({ type: "turn.completed", data: { session: start.session ?? "", turn: start.turn ?? 1, stop_reason: "cancelled", duration_ms: since(start), error } });
  }
  for (const start of ofType("agent.started")) {
    const usage = start.session !== undefined && Object.hasOwn(sessions, start.session) ? sessions[start.session]?.usage : undefined;
    ends.push({
      type: "agent.finished",
      data: definedFields({ session: start.session, turns: start.turns ?? 0, usage: usage ?? { input_tokens: 0, output_tokens: 0 } }),
    });
  }
  ends.push({ type: "run.failed", data: { error } });
  return ends;
}
