// How limits and what stopped a run are worded, as the CLI words them.
import { formatCost } from "./format.ts";

const LIMIT_WORDS: Record<string, string> = { time: "time", cost: "cost", tokens: "token", tool_calls: "tool call" };

/** `time limit`, `token limit`, `tool call limit`. */
export function limitTitle(limit: string | undefined): string {
  return `${(limit !== undefined && Object.hasOwn(LIMIT_WORDS, limit) ? LIMIT_WORDS[limit] : limit) || "a"} limit`;
}

/** `8m of 10m`, `$0.96 of $1.00`, `1,600,000 of 2,000,000 tokens`, `400 of 500 tool calls`. */
export function limitUsage(limit: string | undefined, used: number | undefined, max: number | undefined): string {
  const amount = (value: number | undefined) =>
    value === undefined ? "?" : limit === "time" ? compactDuration(value) : limit === "cost" ? formatCost(value) : Math.round(value).toLocaleString("en");
  return `${amount(used)} of ${amount(max)}${limit === "tokens" ? " tokens" : limit === "tool_calls" ? " tool calls" : ""}`;
}

/** `45s`, `8m`, `8m 30s`, `1h 5m`. */
export function compactDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${seconds % 60 === 0 ? "" : ` ${seconds % 60}s`}`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${minutes % 60 === 0 ? "" : ` ${minutes % 60}m`}`;
}

/** `80%`, rounded down (the epsilon: 0.29 * 100 is 28.999999999999996). */
export function percent(fraction: number | undefined): string {
  return fraction === undefined ? "?%" : `${Math.floor(fraction * 100 + 1e-9)}%`;
}

/** What stopped a run, to follow "stopped by": `the time limit`, `the model provider (overloaded)`. */
export function stoppedByWords(stoppedBy: string | undefined, providerError: string | undefined): string | undefined {
  if (stoppedBy === undefined || stoppedBy === "") return providerError === undefined ? undefined : `the model provider (${providerError})`;
  if (Object.hasOwn(LIMIT_WORDS, stoppedBy)) return `the ${limitTitle(stoppedBy)}`;
  if (stoppedBy === "provider") return `the model provider (${providerError ?? "error"})`;
  if (stoppedBy === "repeats") return "a loop of the same tool call";
  return stoppedBy;
}
