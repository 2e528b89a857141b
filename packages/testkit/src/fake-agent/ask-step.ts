import type * as acp from "@agentclientprotocol/sdk/unstable";
import { closeRefusedToolCall, untilAborted } from "./tool-permission.ts";
import { sendUpdate, textContent } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";
import { streamText } from "./text-steps.ts";

export type AskStep = { message: string; schema: Record<string, unknown>; mode?: "form" | "url" | undefined; regardless?: boolean | undefined };

/**
 * `ask`: a question for the user through ACP elicitation, as Claude Code asks its
 * AskUserQuestion: a tool call is announced, the question sent tied to it, and the answer
 * (`accept` with content, `decline`, `cancel`) reported in the call's output and said as a
 * message (`The user answered: {…}`). A client that takes no form questions is not asked (the
 * agent says so and goes on) unless `regardless`; a cancel of the turn ends the wait and the turn.
 */
export async function playAsk(turn: TurnContext, step: AskStep): Promise<StepOutcome> {
  if (!turn.session.takesForms && step.regardless !== true) {
    await streamText(turn, "agent_message_chunk", "The client takes no form questions; going on without asking.");
    return "next";
  }
  const toolCallId = turn.newToolCallId();
  await sendUpdate(turn, { sessionUpdate: "tool_call", toolCallId, title: "AskUserQuestion", kind: "other", status: "pending", rawInput: { message: step.message } });
  const base = { sessionId: turn.session.id, toolCallId, message: step.message };
  const request =
    step.mode === "url"
      ? { ...base, mode: "url" as const, url: "https://example.invalid/form", elicitationId: `el_${toolCallId}` }
      : { ...base, mode: "form" as const, requestedSchema: step.schema as acp.ElicitationSchema };
  const response = await untilAborted(turn.client.request("elicitation/create", request), turn.signal);
  if (response === undefined) return closeRefusedToolCall(turn, toolCallId, "cancelled", "ask the user");
  const answer = JSON.stringify(response);
  await sendUpdate(turn, { sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [textContent(answer)], rawOutput: response });
  await streamText(turn, "agent_message_chunk", `The user answered: ${answer}`);
  return "next";
}
