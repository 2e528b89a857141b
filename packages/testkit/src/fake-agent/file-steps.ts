import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { askPermission, closeRefusedToolCall } from "./tool-permission.ts";
import { sendUpdate, textContent } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";

/** `delete`: a `delete` tool call on one path, asked about, then the file removed. */
export async function playDelete(turn: TurnContext, path: string): Promise<StepOutcome> {
  const absolutePath = resolve(turn.session.cwd, path);
  return playFileCall(turn, {
    title: `Delete ${path}`,
    kind: "delete",
    rawInput: { path },
    locations: [{ path: absolutePath }],
    action: `delete ${path}`,
    perform: () => rm(absolutePath),
    done: `Deleted ${path}`,
  });
}

/** `move`: a `move` tool call from one path to another (locations: source, then destination). */
export async function playMove(turn: TurnContext, move: { from: string; to: string }): Promise<StepOutcome> {
  const from = resolve(turn.session.cwd, move.from);
  const to = resolve(turn.session.cwd, move.to);
  return playFileCall(turn, {
    title: `Move ${move.from} to ${move.to}`,
    kind: "move",
    rawInput: { from: move.from, to: move.to },
    locations: [{ path: from }, { path: to }],
    action: `move ${move.from}`,
    perform: async () => {
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    },
    done: `Moved ${move.from} to ${move.to}`,
  });
}

type FileCall = {
  title: string;
  kind: acp.ToolKind;
  rawInput: Record<string, string>;
  locations: acp.ToolCallLocation[];
  action: string;
  perform: () => Promise<void>;
  done: string;
};

async function playFileCall(turn: TurnContext, call: FileCall): Promise<StepOutcome> {
  const toolCall = {
    toolCallId: turn.newToolCallId(),
    title: call.title,
    kind: call.kind,
    status: "pending",
    rawInput: call.rawInput,
    locations: call.locations,
  } satisfies acp.ToolCall;
  await sendUpdate(turn, { sessionUpdate: "tool_call", ...toolCall });
  const decision = await askPermission(turn, toolCall);
  if (decision !== "allowed") return closeRefusedToolCall(turn, toolCall.toolCallId, decision, call.action);
  if (turn.signal.aborted) return closeRefusedToolCall(turn, toolCall.toolCallId, "cancelled", call.action);
  try {
    await call.perform();
  } catch (error) {
    await sendUpdate(turn, {
      sessionUpdate: "tool_call_update",
      toolCallId: toolCall.toolCallId,
      status: "failed",
      content: [textContent(`Could not ${call.action}: ${(error as Error).message}`)],
    });
    return "next";
  }
  await sendUpdate(turn, { sessionUpdate: "tool_call_update", toolCallId: toolCall.toolCallId, status: "completed", content: [textContent(call.done)] });
  return "next";
}
