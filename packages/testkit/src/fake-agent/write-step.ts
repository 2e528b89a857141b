import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { askPermission, closeRefusedToolCall } from "./tool-permission.ts";
import { sendUpdate, textContent } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";

/**
 * `write`: announce an `edit` tool call, ask permission, then write the file in the session's
 * cwd and report a diff, the way real agents report their file edits. ACP paths are absolute,
 * so locations and the diff carry the resolved path; `rawInput` keeps what the script said.
 */
export async function playWrite(turn: TurnContext, write: { path: string; content: string }): Promise<StepOutcome> {
  const absolutePath = resolve(turn.session.cwd, write.path);
  const toolCall = {
    toolCallId: turn.newToolCallId(),
    title: `Write ${write.path}`,
    kind: "edit",
    status: "pending",
    rawInput: { path: write.path, content: write.content },
    locations: [{ path: absolutePath }],
  } satisfies acp.ToolCall;
  await sendUpdate(turn, { sessionUpdate: "tool_call", ...toolCall });

  const decision = await askPermission(turn, toolCall);
  if (decision !== "allowed") return closeRefusedToolCall(turn, toolCall.toolCallId, decision, `write ${write.path}`);
  if (turn.signal.aborted) return closeRefusedToolCall(turn, toolCall.toolCallId, "cancelled", `write ${write.path}`);
  await sendUpdate(turn, { sessionUpdate: "tool_call_update", toolCallId: toolCall.toolCallId, status: "in_progress" });

  let oldText: string | null;
  try {
    oldText = await readExisting(absolutePath);
    await mkdir(dirname(absolutePath), { recursive: true });
    await writeFile(absolutePath, write.content);
  } catch (error) {
    // A write that fails (a directory in the way, no permission) is a failed tool call, as
    // with a real agent, not a failed turn.
    await sendUpdate(turn, {
      sessionUpdate: "tool_call_update",
      toolCallId: toolCall.toolCallId,
      status: "failed",
      content: [textContent(`Could not write ${write.path}: ${(error as Error).message}`)],
    });
    return "next";
  }
  await sendUpdate(turn, {
    sessionUpdate: "tool_call_update",
    toolCallId: toolCall.toolCallId,
    status: "completed",
    content: [{ type: "diff", path: absolutePath, oldText, newText: write.content }],
  });
  return "next";
}

async function readExisting(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
