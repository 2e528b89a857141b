// Live lines for what goes wrong with the agent or its model provider, and what Baton does
// about it: provider errors and retries, a switch to the fallback model, stalls and loops.
import { type Data, firstLine, num, text } from "./event-data.ts";
import { compactDuration } from "./limit-amounts.ts";

/** Longest provider message shown: the complete one is in the event. */
const PROVIDER_MESSAGE_CHARS = 120;

/** `✗ provider error: rate_limited (429, retry-after 5.0s) — API Error: 429 rate limit exceeded`. */
export function providerErrorLine(data: Data): string {
  const status = num(data["status"]);
  const retryAfter = num(data["retry_after_ms"]);
  const facts = [status === undefined ? "" : String(status), retryAfter === undefined ? "" : `retry-after ${waitDuration(retryAfter)}`].filter(Boolean);
  const message = firstLine(data["message"], PROVIDER_MESSAGE_CHARS);
  return `✗ provider error: ${text(data["class"]) || "other"}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}${message === "" ? "" : ` — ${message}`}`;
}

/** `↻ retry 1/3 in 12.3s`: the failed turn is sent again after the wait. */
export function retryLine(data: Data): string {
  const attempt = num(data["attempt"]) ?? "?";
  const max = num(data["max_attempts"]) ?? "?";
  const delay = num(data["delay_ms"]);
  return `↻ retry ${attempt}/${max}${delay === undefined ? "" : ` in ${waitDuration(delay)}`}`;
}

/** `⇄ model switched: big-model → small-model (overloaded)`. */
export function modelSwitchedLine(data: Data): string {
  const to = text(data["to"]);
  const reported = text(data["model"]);
  const agentSays = reported !== "" && reported !== to ? `; the agent reports ${reported}` : "";
  const why = text(data["reason"]);
  return `⇄ model switched: ${text(data["from"]) || "?"} → ${to}${why === "" ? "" : ` (${why})`}${agentSays}`;
}

/** `⚠ stalled: nothing from the agent for 2m; sending the turn again`. */
export function stallLine(data: Data): string {
  const idle = num(data["idle_ms"]);
  const action = text(data["action"]);
  const then = action === "resend" ? "; sending the turn again" : action === "fail" ? "; failing the run" : "";
  return `⚠ stalled: nothing from the agent${idle === undefined ? "" : ` for ${compactDuration(idle)}`}${then}`;
}

/** `⚠ loop: the same execute call 5 times in a row (same input, same result); the agent was told`. */
export function repeatLine(data: Data): string {
  const told = data["action"] === "notice" ? (data["notified"] === false ? "; the agent takes no notices" : "; the agent was told") : "";
  const tool = text(data["tool"]);
  return `⚠ loop: the same ${tool === "" ? "tool" : tool} call ${num(data["count"]) ?? "?"} times in a row (same input, same result)${told}`;
}

/** Waits are short (seconds, with a tenth) or long (`2m 30s`). */
function waitDuration(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : compactDuration(ms);
}
