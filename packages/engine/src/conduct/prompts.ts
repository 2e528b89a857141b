import { formatDuration } from "../config/duration.ts";
import type { LimitName, LimitUse } from "./limits.ts";

/** The prompts Baton sends besides the task. Plain words: any agent must understand them. */

const LIMIT_WORDS: Record<LimitName, string> = {
  time: "time",
  cost: "cost budget",
  tokens: "token budget",
  tool_calls: "tool-call budget",
  requests: "model-request budget",
};

export function limitNotice(use: LimitUse): string {
  return `Note from the harness: this run has used ${Math.round(use.fraction * 100)}% of its ${LIMIT_WORDS[use.limit]} (${describeUse(use)}). Keep going, but plan to finish soon and keep your work in the files.`;
}

export function handbackPrompt(why: string): string {
  return [
    `Stop here: ${why}.`,
    "Do not start anything new. Leave the files as they are, with your work so far saved in them, and reply with a short hand-back:",
    "what is done, what is left, and what the next step would be.",
  ].join(" ");
}

export function limitHandbackReason(use: LimitUse): string {
  return `the run is at ${Math.round(use.fraction * 100)}% of its ${LIMIT_WORDS[use.limit]} (${describeUse(use)})`;
}

export function repeatNotice(tool: string, count: number): string {
  return `Note from the harness: you have made the same ${tool} call ${count} times in a row with the same result. It will not change; try something else. One more identical call ends the run.`;
}

export function resendPrompt(task: string, why: string): string {
  return `Your last turn ended early: ${why}. Please continue with the task where you left off; the files hold your work so far.\n\nThe task:\n${task}`;
}

export function reminderPrompt(): string {
  return "Your turn ended, but the task asks for changes to the files and none were made. Please make the changes the task asks for now, then end your turn.";
}

function describeUse(use: LimitUse): string {
  switch (use.limit) {
    case "time":
      return `${formatDuration(use.used)} of ${formatDuration(use.max)}`;
    case "cost":
      return `$${use.used.toFixed(2)} of $${use.max.toFixed(2)}`;
    default:
      return `${use.used} of ${use.max}`;
  }
}
