// Live lines for the run's limits: its budget, warnings, limits reached, and hand-back requests.
import { type Data, num, text } from "./event-data.ts";
import { limitTitle, limitUsage, percent } from "./limit-amounts.ts";

/** Where `budget.updated` keeps each limit's use and maximum (its `limits` keys). */
const BUDGET_FIELDS: Record<string, { used: string; max: string }> = {
  time: { used: "elapsed_ms", max: "timeout_ms" },
  cost: { used: "cost_usd", max: "cost_usd" },
  tokens: { used: "tokens", max: "tokens" },
  tool_calls: { used: "tool_calls", max: "tool_calls" },
};

/**
 * The tenth of its most used limit a `budget.updated` is at (0 to 10), or undefined without a
 * limit. A budget comes after every turn and tool call; the live view shows one only when
 * this goes up, so a run prints at most a line per tenth.
 */
export function budgetTenth(data: Data): number | undefined {
  const fraction = num(data["fraction"]);
  return fraction === undefined || text(data["limit"]) === "" ? undefined : Math.min(10, Math.floor(fraction * 10 + 1e-9));
}

/** `budget: time limit 10% used (1m 1s of 10m)`. */
export function budgetLine(data: Data): string {
  const limit = text(data["limit"]);
  const fields = BUDGET_FIELDS[limit];
  const limits = typeof data["limits"] === "object" && data["limits"] !== null ? (data["limits"] as Data) : {};
  const usage = fields === undefined ? "" : ` (${limitUsage(limit, num(data[fields.used]), num(limits[fields.max]))})`;
  return `budget: ${limitTitle(limit)} ${percent(num(data["fraction"]))} used${usage}`;
}

/** `⚠ time limit past 80%: 83% used (8m 18s of 10m); the agent was told`. */
export function limitWarningLine(data: Data): string {
  const limit = text(data["limit"]);
  const told = data["notified"] === true ? "; the agent was told" : "";
  const mark = num(data["threshold"]);
  const past = mark === undefined ? "" : ` past ${percent(mark)}:`;
  return `⚠ ${limitTitle(limit)}${past} ${percent(num(data["fraction"]))} used (${limitUsage(limit, num(data["used"]), num(data["max"]))})${told}`;
}

/** At 95% a hand-back follows (its own line); at 100% the turn is cancelled or the run stops. */
export function limitReachedLine(data: Data): string {
  const limit = text(data["limit"]);
  const usage = limitUsage(limit, num(data["used"]), num(data["max"]));
  const action = text(data["action"]);
  if (action === "handback") return `⚠ ${limitTitle(limit)} nearly reached: ${percent(num(data["fraction"]))} used (${usage})`;
  const then = action === "cancel" ? ": cancelling the turn" : action === "stop" ? ": stopping the run" : "";
  return `■ ${limitTitle(limit)} reached (${usage})${then}`;
}

/** `↩ asking the agent to hand back its work (cost limit)`. */
export function handbackLine(data: Data): string {
  const reason = text(data["reason"]);
  const why =
    reason === "limit"
      ? limitTitle(text(data["limit"]))
      : reason === "provider"
        ? `the model provider: ${text(data["class"]) || "error"}`
        : reason === "repeat"
          ? "the same tool call again and again"
          : reason;
  return `↩ asking the agent to hand back its work${why === "" ? "" : ` (${why})`}`;
}
