import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { FakeSession } from "./fake-session.ts";

/** Token counts gathered from the `usage` steps of one turn, for the prompt response. */
export type TurnUsage = { inputTokens: number; outputTokens: number; reported: boolean };

/** Everything a step needs while it plays; built fresh for each `session/prompt`. */
export type TurnContext = {
  readonly session: FakeSession;
  /** The SDK's handle for calling the client (notifications, permission requests). */
  readonly client: acp.AgentContext;
  /** Aborts on `session/cancel` or when the connection closes. */
  readonly signal: AbortSignal;
  readonly usage: TurnUsage;
  readonly newToolCallId: () => string;
  /** Ends the process for a `crash` step. */
  readonly exit: (code: number) => never;
  /** Writes to the agent's standard error for a `stderr` step; resolves once written. */
  readonly writeStderr: (text: string) => Promise<void>;
};

/** What a step tells the turn: go on, end the turn with a stop reason, or answer with an error. */
export type StepOutcome =
  | "next"
  | { stop: acp.StopReason }
  | { fail: { code: number; message: string; data?: unknown } };

/**
 * Sends one `session/update`. Awaiting it waits until the line is handed to stdout, which is
 * what keeps a `flood` from piling up in memory.
 */
export function sendUpdate(turn: TurnContext, update: acp.SessionUpdate): Promise<void> {
  return turn.client.notify("session/update", { sessionId: turn.session.id, update });
}

/** A tool call content item holding plain text. */
export function textContent(text: string): acp.ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}
