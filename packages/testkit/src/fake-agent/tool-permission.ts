import type * as acp from "@agentclientprotocol/sdk/unstable";
import { sendUpdate, textContent } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";

export type PermissionDecision = "allowed" | "rejected" | "cancelled";

/** The options real agents offer; the option id is the kind, so the answer maps back simply. */
export const permissionOptions: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/**
 * Asks the client through `session/request_permission`. A cancel of the turn stops the wait
 * at once: a v1 client should then answer "cancelled", but the fake must not hang on one
 * that does not. An option id the fake did not offer counts as a rejection.
 */
export async function askPermission(turn: TurnContext, toolCall: acp.ToolCallUpdate): Promise<PermissionDecision> {
  const request = turn.client.request("session/request_permission", {
    sessionId: turn.session.id,
    toolCall,
    options: permissionOptions,
  });
  const response = await untilAborted(request, turn.signal);
  if (response === undefined || response.outcome.outcome === "cancelled") return "cancelled";
  const { optionId } = response.outcome;
  const kind = permissionOptions.find((option) => option.optionId === optionId)?.kind;
  return kind === "allow_once" || kind === "allow_always" ? "allowed" : "rejected";
}

/**
 * Closes a tool call the client did not allow, as failed with a text saying why. A rejection
 * lets the script go on (real agents carry on and explain); a cancel ends the turn.
 */
export async function closeRefusedToolCall(
  turn: TurnContext,
  toolCallId: string,
  decision: Exclude<PermissionDecision, "allowed">,
  action: string,
): Promise<StepOutcome> {
  const text =
    decision === "rejected" ? `Permission to ${action} was rejected` : `Cancelled before permission to ${action}`;
  await sendUpdate(turn, { sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [textContent(text)] });
  return decision === "rejected" ? "next" : { stop: "cancelled" };
}

/** Resolves with the promise's value, or with undefined as soon as the signal aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    // Settling an already-resolved promise is a no-op, so a late answer or error is absorbed.
    void promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
