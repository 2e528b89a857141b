import type * as acp from "@agentclientprotocol/sdk/unstable";
import { runShellCommand } from "./shell-command.ts";
import type { CommandResult } from "./shell-command.ts";
import { askPermission, closeRefusedToolCall } from "./tool-permission.ts";
import { sendUpdate, textContent } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";

/**
 * `run`: announce an `execute` tool call, ask permission, run the command with `sh -c` in the
 * session's cwd, and report its combined output; exit 0 is completed, anything else failed.
 * A cancel kills the command; the turn then ends cancelled.
 */
export async function playRun(turn: TurnContext, command: string): Promise<StepOutcome> {
  const toolCall = {
    toolCallId: turn.newToolCallId(),
    title: `Run ${command}`,
    kind: "execute",
    status: "pending",
    rawInput: { command },
  } satisfies acp.ToolCall;
  await sendUpdate(turn, { sessionUpdate: "tool_call", ...toolCall });

  const decision = await askPermission(turn, toolCall);
  if (decision !== "allowed") return closeRefusedToolCall(turn, toolCall.toolCallId, decision, `run ${command}`);
  if (turn.signal.aborted) return closeRefusedToolCall(turn, toolCall.toolCallId, "cancelled", `run ${command}`);
  await sendUpdate(turn, { sessionUpdate: "tool_call_update", toolCallId: toolCall.toolCallId, status: "in_progress" });

  let result: CommandResult;
  try {
    result = await runShellCommand(command, turn.session.cwd, turn.signal);
  } catch (error) {
    // The shell could not start at all (missing cwd, no `sh`): a failed call, not a failed turn.
    result = { exitCode: null, output: `Could not start sh: ${(error as Error).message}` };
  }
  await sendUpdate(turn, {
    sessionUpdate: "tool_call_update",
    toolCallId: toolCall.toolCallId,
    status: result.exitCode === 0 ? "completed" : "failed",
    content: [textContent(result.output)],
    rawOutput: { exit_code: result.exitCode, output: result.output },
  });
  return turn.signal.aborted ? { stop: "cancelled" } : "next";
}
