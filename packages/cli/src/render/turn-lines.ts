import { type Data, num, text } from "./event-data.ts";

/** Why a prompt other than the task was sent, by `turn.started.reason`. */
const REASON_WORDS: Record<string, string> = {
  fix: "a fix prompt: validation failed",
  resend: "the turn sent again",
  notice: "a notice to the agent",
  handback: "the hand-back prompt",
  reminder: "a reminder: the task asks for a change",
  steer: "a steering prompt",
};

/** `» turn 3: the turn sent again`, or nothing for the task's own turns. */
export function turnStartedLine(data: Data): string | undefined {
  const reason = text(data["reason"]);
  if (reason === "" || reason === "task") return undefined;
  const words = Object.hasOwn(REASON_WORDS, reason) ? REASON_WORDS[reason] : reason;
  return `» turn ${num(data["turn"]) ?? "?"}: ${words}`;
}
