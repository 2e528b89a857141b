import { limitTitle } from "./limit-amounts.ts";

const LIMITS = new Set(["time", "cost", "tokens", "tool_calls", "requests"]);

/**
 * What stopped a run, if it says (`run.completed` with `status: "stopped"`), to follow "stopped by":
 * `the time limit`, `the model provider (overloaded)`, `a loop of the same tool call`.
 */
export function stoppedByWords(stoppedBy: string | undefined, providerError: string | undefined): string | undefined {
  if (stoppedBy === undefined || stoppedBy === "") return providerError === undefined ? undefined : `the model provider (${providerError})`;
  if (LIMITS.has(stoppedBy)) return `the ${limitTitle(stoppedBy)}`;
  if (stoppedBy === "provider") return `the model provider (${providerError ?? "error"})`;
  if (stoppedBy === "repeats") return "a loop of the same tool call";
  return stoppedBy;
}
