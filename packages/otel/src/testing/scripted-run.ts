import type { Envelope, StageScope } from "@baton/protocol/core";
import { definedFields } from "@baton/protocol/core";

export const SCRIPTED_RUN = "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A";

/** A workflow run in two stages: a turn with a tool call (and a subagent's call inside it), a permission, a retry. */
export function scriptedWorkflowRun(): Envelope[] {
  const events: Envelope[] = [];
  const start = Date.parse("2026-11-29T10:00:00.000Z");
  const add = (type: string, data: Record<string, unknown>, stage?: StageScope) => {
    const seq = events.length + 1;
    events.push({ v: 1, run: SCRIPTED_RUN, seq, at: new Date(start + seq * 100).toISOString(), type, data, ...definedFields({ stage }) });
  };
  const plan = { id: "plan", visit: 1 };
  const check = { id: "check", visit: 1 };
  add("run.created", { number: 5, task: "secret task text", agent: "claude", model: "sonnet", workflow: "plan-check", repo: { root: "/r", dirty: false } });
  add("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" });
  add("stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }, plan);
  add("agent.started", { session: "ses_1", agent: "claude", model: "claude-sonnet-4", protocol_version: 1 }, plan);
  add("turn.started", { session: "ses_1", turn: 1, reason: "task" }, plan);
  add("agent.message", { session: "ses_1", turn: 1, text: "private prose" }, plan);
  add("tool.started", { session: "ses_1", call: "toolu_1", tool: "Task", kind: "think", input: { prompt: "private argument" } }, plan);
  add("tool.started", { session: "ses_1", call: "toolu_2", tool: "Bash", kind: "execute", input: { command: "ls" }, parent_call: "toolu_1" }, plan);
  add("permission.requested", { session: "ses_1", call: "toolu_2", tool: "Bash", options: [] }, plan);
  add("permission.resolved", { session: "ses_1", call: "toolu_2", decision: "allow", by: "policy", rule: "default:allow" }, plan);
  add("tool.completed", { session: "ses_1", call: "toolu_2", tool: "Bash", status: "completed", is_error: false, duration_ms: 100, exit_code: 0, output_chars: 3, preview: "private output" }, plan);
  add("tool.completed", { session: "ses_1", call: "toolu_1", tool: "Task", status: "failed", is_error: true, duration_ms: 300, output_chars: 0 }, plan);
  add("usage.updated", { session: "ses_1", basis: "total", context_used: 150_000, context_size: 200_000 }, plan);
  add("retry.scheduled", { what: "turn", class: "rate_limited", attempt: 1, max_attempts: 3, delay_ms: 10 }, plan);
  add("turn.completed", { session: "ses_1", turn: 1, stop_reason: "end_turn", duration_ms: 900, usage: { input_tokens: 1200, output_tokens: 300, cache_read_tokens: 50 } }, plan);
  add("agent.finished", { session: "ses_1", turns: 1, usage: { input_tokens: 1200, output_tokens: 300 }, exit_code: 0 }, plan);
  add("stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 1000 }, plan);
  add("stage.started", { stage: "check", handler: "command", visit: 1, attempt: 1, max_attempts: 1 }, check);
  add("stage.failed", { stage: "check", visit: 1, error: { code: "command_failed", message: "exit 1" }, class: "deterministic", will_retry: false, duration_ms: 50, exit_code: 1 }, check);
  add("run.failed", { error: { code: "stage_failed", message: "check failed" }, usage: { input_tokens: 1200, output_tokens: 300 } });
  return events;
}
