import { formatCost } from "./style.ts";

/**
 * How much of a limit is used, in the limit's own unit: `8m of 10m`, `$0.96 of $1.00`,
 * `1,600,000 of 2,000,000 tokens`, `400 of 500 tool calls`.
 */
export function limitUsage(limit: string, used: number | undefined, max: number | undefined): string {
  const amount = (value: number | undefined) => (value === undefined ? "?" : limitAmount(limit, value));
  const unit = limit === "tokens" ? " tokens" : limit === "tool_calls" ? " tool calls" : limit === "requests" ? " model requests" : "";
  return `${amount(used)} of ${amount(max)}${unit}`;
}

/** `time limit`, `cost limit`, `token limit`, `tool call limit`: a limit's name in a sentence. */
export function limitTitle(limit: string): string {
  return `${LIMIT_WORDS[limit] ?? (limit || "a")} limit`;
}

const LIMIT_WORDS: Record<string, string> = { time: "time", cost: "cost", tokens: "token", tool_calls: "tool call", requests: "model request" };

function limitAmount(limit: string, value: number): string {
  if (limit === "time") return compactDuration(value);
  if (limit === "cost") return formatCost(value);
  return Math.round(value).toLocaleString("en-US");
}

/** `45s`, `8m`, `8m 30s`, `1h 5m`: a limit's time, short enough for a one-line warning. */
export function compactDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return seconds % 60 === 0 ? `${Math.floor(seconds / 60)}m` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  const minutes = Math.round(seconds / 60);
  return minutes % 60 === 0 ? `${Math.floor(minutes / 60)}h` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** `80%`: a share of a limit, rounded down so that 99.6% never reads as a limit reached. */
export function percent(fraction: number | undefined): string {
  // The epsilon: 0.29 * 100 is 28.999999999999996 in binary floating point.
  return fraction === undefined ? "?%" : `${Math.floor(fraction * 100 + 1e-9)}%`;
}
