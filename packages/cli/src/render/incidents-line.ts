import type { RunReliability } from "../run-reliability.ts";
import { limitTitle } from "./limit-amounts.ts";

/**
 * `2 provider errors (rate_limited, overloaded) · 2 retries · 1 stall · hand-back asked (cost
 * limit), handed back`: what went wrong in a run, or undefined when nothing did.
 */
export function incidentsLine(facts: RunReliability): string | undefined {
  const parts = [
    count(facts.provider_errors, "provider error", facts.provider_error_classes.length > 0 ? ` (${facts.provider_error_classes.join(", ")})` : ""),
    count(facts.retries, "retry", "", "retries"),
    count(facts.model_switches, "model switch", "", "model switches"),
    count(facts.stalls, "stall"),
    count(facts.repeats, "loop"),
    count(facts.limit_warnings, "limit warning"),
  ].filter((part) => part !== "");
  if (facts.handback !== undefined) {
    const answered = facts.handed_back === true ? ", handed back" : facts.handed_back === false ? ", not handed back" : "";
    parts.push(`hand-back asked (${handbackWhy(facts.handback)})${answered}`);
  }
  return parts.length === 0 ? undefined : parts.join(" · ");
}

function handbackWhy(handback: NonNullable<RunReliability["handback"]>): string {
  if (handback.reason === "limit") return limitTitle(handback.limit ?? "");
  if (handback.reason === "provider") return `model provider: ${handback.class ?? "error"}`;
  if (handback.reason === "repeat") return "a loop";
  return handback.reason;
}

function count(n: number, one: string, detail = "", many = `${one}s`): string {
  return n === 0 ? "" : `${n} ${n === 1 ? one : many}${detail}`;
}
