import type { QueuedInput } from "./input-queue.ts";

/**
 * What the agent is sent for people's inputs: each behind a note that says it comes from a
 * person watching the run, so the agent weighs it as guidance beside its task, not as the task.
 */
export function personNote(inputs: readonly QueuedInput[]): string {
  const lines = inputs.map((input) => `Message from ${input.by}, a person watching this run (through Baton):\n${input.text}`);
  return `${lines.join("\n\n")}\n\nTake this into account and carry on with the task.`;
}

/** The task's prompt with inputs that waited for it (sent before this agent stage began). */
export function promptWithInputs(prompt: string, inputs: readonly QueuedInput[]): string {
  return inputs.length === 0 ? prompt : `${prompt}\n\n${personNote(inputs)}`;
}
