import { definedFields, type OpenStart, type RunState, type StageScope } from "@baton/protocol/core";

/** The error code of the ends that recovery appends, on `run.failed` and on each start it closes. */
export const INTERRUPTED_CODE = "interrupted";

/** An event to append: its type, data, and the stage scope of its envelope. */
export type PendingEvent = { type: string; data: Record<string, unknown>; stage?: StageScope };

/**
 * The events that end a run whose writer died, in the order they are appended: an end for each
 * start the log leaves open, the last started first (so a permission request closes before its
 * tool call, a tool call before its turn, a turn before its agent session, a stage inside a
 * fan-out branch before the branch, the branch before its parallel stage, a person's input not
 * yet delivered is rejected `not_running`, a question not answered is cancelled), then `run.failed`
 * with code `interrupted`. Each end is written in its start's stage scope, says why (`error`,
 * where its type has one) and takes the time from its start to `nowMs`. `sessions` gives each
 * session's usage for its `agent.finished` (from the run-state fold of the same log).
 *
 * @example
 * interruptedEnds(openStartsOf(events), foldRun(events).sessions, "the writer (pid 42) died", Date.now());
 */
export function interruptedEnds(open: readonly OpenStart[], sessions: RunState["sessions"], message: string, nowMs: number): PendingEvent[] {
  const error = { code: INTERRUPTED_CODE, message };
  const ends: PendingEvent[] = [];
  // Branches ended here count among their parallel stage's results, as the ones that ended before.
  const cancelledBranches: Array<{ stage: string | undefined; branch: string; outcome: string }> = [];
  for (const start of [...open].reverse()) {
    const data = endData(start, sessions, error, Math.max(0, nowMs - (Date.parse(start.at) || nowMs)));
    if (start.type === "branch.started") cancelledBranches.push({ stage: start.data.stage, branch: start.data.branch ?? "", outcome: "cancelled" });
    if (start.type === "parallel.started") {
      const ended = cancelledBranches.filter((branch) => branch.stage === start.data.stage).map(({ branch, outcome }) => ({ branch, outcome }));
      data["results"] = [...(start.results ?? []), ...ended.reverse()];
    }
    ends.push(definedFields({ type: END_TYPES[start.type], data, stage: start.stage }));
  }
  ends.push({ type: "run.failed", data: { error } });
  return ends;
}

/** The end each start gets from recovery (stage visits end failed: their run did not finish them). */
const END_TYPES: Record<OpenStart["type"], string> = {
  "agent.started": "agent.finished",
  "turn.started": "turn.completed",
  "tool.started": "tool.completed",
  "permission.requested": "permission.resolved",
  "stage.started": "stage.failed",
  "parallel.started": "parallel.completed",
  "branch.started": "branch.completed",
  "input.queued": "input.rejected",
  "question.asked": "question.answered",
  "setup.started": "setup.failed",
};

function endData(start: OpenStart, sessions: RunState["sessions"], error: { code: string; message: string }, durationMs: number): Record<string, unknown> {
  const { session = "", call = "", tool = "", turn = 1, stage = "", visit = 1, branch = "" } = start.data;
  switch (start.type) {
    case "permission.requested":
      return { session, call, decision: "cancelled", by: "policy", rule: INTERRUPTED_CODE };
    case "tool.started":
      return { session, call, tool, status: "cancelled", is_error: true, duration_ms: durationMs, output_chars: 0, error };
    case "turn.started":
      return { session, turn, stop_reason: "cancelled", duration_ms: durationMs, error };
    case "agent.started": {
      const usage = start.data.session !== undefined && Object.hasOwn(sessions, start.data.session) ? sessions[start.data.session]?.usage : undefined;
      return definedFields({ session: start.data.session, turns: start.turns ?? 0, usage: usage ?? { input_tokens: 0, output_tokens: 0 } });
    }
    // A dead writer is a lost worker: transient, though nobody retries it here.
    case "stage.started":
      return { stage, visit, error, class: "transient_infra", will_retry: false, duration_ms: durationMs };
    case "branch.started":
      return { stage, branch, outcome: "cancelled", error };
    case "parallel.started":
      return { stage, outcome: "failed", results: start.results ?? [] };
    // Taken by the run, never delivered: its process died first.
    case "input.queued":
      return { id: start.data.id ?? "", code: "not_running", message: `the run ended before it was delivered: ${error.message}` };
    // Asked, never answered: the agent that asked is gone with the run's process.
    case "question.asked":
      return definedFields({ session, id: start.data.id ?? "", call: start.data.call, action: "cancel", by: "policy", rule: INTERRUPTED_CODE, reason: error.message });
    // The command that was running is not known from the start: the run's setup was cut.
    case "setup.started":
      return definedFields({ command: "", exit_code: null, error, output_tail: "", branch: start.data.branch });
  }
}
