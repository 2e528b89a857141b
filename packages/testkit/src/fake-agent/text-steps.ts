import { chunkText } from "./chunk-text.ts";
import { sendUpdate } from "./turn-context.ts";
import type { TurnContext } from "./turn-context.ts";

/** `say` and `think`: the text streamed as several chunks, stopping at a cancel. */
export async function streamText(
  turn: TurnContext,
  kind: "agent_message_chunk" | "agent_thought_chunk",
  text: string,
): Promise<void> {
  for (const chunk of chunkText(text)) {
    if (turn.signal.aborted) return;
    await sendUpdate(turn, { sessionUpdate: kind, content: { type: "text", text: chunk } });
  }
}

/**
 * `flood`: `count` message chunks as fast as the transport takes them. Each send is awaited,
 * so a slow reader slows the agent down instead of growing a queue in its memory.
 */
export async function floodMessages(turn: TurnContext, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    if (turn.signal.aborted) return;
    await sendUpdate(turn, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${index} ` },
    });
  }
}
