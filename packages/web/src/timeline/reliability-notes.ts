// One line for each limit and reliability event: budgets, limits, provider errors, retries,
// model switches, stalls, loops and hand-backs. Text only, like every note.
import { compactDuration, limitTitle, limitUsage, percent } from "../format/limits.ts";
import { type Data, num, record, str } from "./data.ts";
import type { NoteItem } from "./items.ts";

type Describe = (data: Data) => Pick<NoteItem, "text" | "tone">;

/** Where `budget.updated` keeps each limit's use and maximum (its `limits` keys). */
const BUDGET_FIELDS: Record<string, [used: string, max: string]> = {
  time: ["elapsed_ms", "timeout_ms"],
  cost: ["cost_usd", "cost_usd"],
  tokens: ["tokens", "tokens"],
  tool_calls: ["tool_calls", "tool_calls"],
};

/**
 * The tenth of its most used limit a `budget.updated` is at (0 to 10), or -1 without a limit.
 * Budgets come after every turn and tool call: the timeline shows one row per tenth.
 */
export function budgetTenth(data: Data): number {
  const fraction = num(data["fraction"]);
  return fraction === undefined || str(data["limit"]) === undefined ? -1 : Math.min(10, Math.floor(fraction * 10 + 1e-9));
}

const TURN_REASONS: Record<string, string> = {
  resend: "the turn sent again",
  notice: "a notice to the agent",
  handback: "the hand-back prompt",
  reminder: "a reminder: the task asks for a change",
  steer: "a steering prompt",
};

const wait = (ms: number | undefined) => (ms === undefined ? "" : ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : compactDuration(ms));
const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0]!.slice(0, 300);

export const RELIABILITY_DESCRIBERS: Record<string, Describe> = {
  "turn.started": (d) => {
    const reason = str(d["reason"]);
    const why = reason === undefined || reason === "task" ? undefined : Object.hasOwn(TURN_REASONS, reason) ? TURN_REASONS[reason] : reason;
    return { text: `turn ${num(d["turn"]) ?? "?"}${why === undefined ? "" : `: ${why}`}`, tone: why === undefined ? "dim" : "info" };
  },
  "budget.updated": (d) => {
    const limit = str(d["limit"]);
    const fields = limit !== undefined && Object.hasOwn(BUDGET_FIELDS, limit) ? BUDGET_FIELDS[limit] : undefined;
    if (num(d["fraction"]) === undefined || fields === undefined) {
      const calls = num(d["tool_calls"]) ?? 0;
      return { text: `budget: no limits · ${(num(d["tokens"]) ?? 0).toLocaleString("en")} tokens · ${calls} tool ${calls === 1 ? "call" : "calls"}`, tone: "dim" };
    }
    const usage = limitUsage(limit, num(d[fields[0]]), num(record(d["limits"])[fields[1]]));
    return { text: `budget: ${limitTitle(limit)} ${percent(num(d["fraction"]))} used (${usage})`, tone: "dim" };
  },
  "limit.warning": (d) => ({
    text: `${limitTitle(str(d["limit"]))} ${percent(num(d["fraction"]))} used (${limitUsage(str(d["limit"]), num(d["used"]), num(d["max"]))})${d["notified"] === true ? "; the agent was told" : ""}`,
    tone: "warn",
  }),
  "limit.reached": (d) => {
    const usage = limitUsage(str(d["limit"]), num(d["used"]), num(d["max"]));
    if (d["action"] === "handback") return { text: `${limitTitle(str(d["limit"]))} nearly reached: ${percent(num(d["fraction"]))} used (${usage})`, tone: "warn" };
    const then = d["action"] === "cancel" ? ": cancelling the turn" : d["action"] === "stop" ? ": stopping the run" : "";
    return { text: `${limitTitle(str(d["limit"]))} reached (${usage})${then}`, tone: "error" };
  },
  "handback.requested": (d) => {
    const reason = str(d["reason"]);
    const why = reason === "limit" ? limitTitle(str(d["limit"])) : reason === "provider" ? `the model provider: ${str(d["class"]) ?? "error"}` : reason === "repeat" ? "the same tool call again and again" : reason;
    return { text: `asking the agent to hand back its work${why === undefined ? "" : ` (${why})`}`, tone: "warn" };
  },
  "provider.error": (d) => {
    const facts = [num(d["status"]), num(d["retry_after_ms"]) !== undefined && `retry-after ${wait(num(d["retry_after_ms"]))}`].filter((fact) => fact !== undefined && fact !== false);
    const message = firstLine(str(d["message"]));
    return { text: `provider error: ${str(d["class"]) ?? "other"}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}${message === "" ? "" : ` — ${message}`}`, tone: "error" };
  },
  "retry.scheduled": (d) => ({ text: `retry ${num(d["attempt"]) ?? "?"}/${num(d["max_attempts"]) ?? "?"}${num(d["delay_ms"]) === undefined ? "" : ` in ${wait(num(d["delay_ms"]))}`}`, tone: "warn" }),
  "model.switched": (d) => {
    const reported = str(d["model"]);
    const agentSays = reported !== undefined && reported !== str(d["to"]) ? `; the agent reports ${reported}` : "";
    return { text: `model switched: ${str(d["from"]) ?? "?"} → ${str(d["to"]) ?? "?"}${str(d["reason"]) ? ` (${str(d["reason"])})` : ""}${agentSays}`, tone: "warn" };
  },
  "stall.detected": (d) => {
    const then = d["action"] === "resend" ? "; sending the turn again" : d["action"] === "fail" ? "; failing the run" : "";
    return { text: `stalled: nothing from the agent${num(d["idle_ms"]) === undefined ? "" : ` for ${compactDuration(num(d["idle_ms"])!)}`}${then}`, tone: d["action"] === "fail" ? "error" : "warn" };
  },
  "repeat.detected": (d) => {
    const told = d["action"] === "notice" ? (d["notified"] === false ? "; the agent takes no notices" : "; the agent was told") : "";
    return { text: `loop: the same ${str(d["tool"]) ?? "tool"} call ${num(d["count"]) ?? "?"} times in a row (same input, same result)${told}`, tone: "warn" };
  },
};
