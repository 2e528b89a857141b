import { resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { PlayableStep, Step } from "./step-schema.ts";
import { playRun } from "./run-step.ts";
import { floodMessages, streamText } from "./text-steps.ts";
import { sendUpdate } from "./turn-context.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";
import { reportUsage } from "./usage-step.ts";
import { playModelCall } from "./model-call-step.ts";
import { playDelete, playMove } from "./file-steps.ts";
import { hangThroughCancel, sleepUnlessCancelled, waitForFileUnlessCancelled, waitForNoticeUnlessCancelled } from "./wait-steps.ts";
import { playWrite } from "./write-step.ts";
import { playAsk } from "./ask-step.ts";

/** How a turn ends: the prompt response, or the JSON-RPC error to answer the prompt with. */
export type TurnEnd =
  | { kind: "response"; response: acp.PromptResponse }
  | { kind: "error"; error: { code: number; message: string; data?: unknown } };

/**
 * Plays one turn's steps in order. A cancel stops the current step (all but `hang`) and ends
 * the turn with `cancelled`; otherwise the turn ends with `end_turn` after the last step, or
 * earlier at a `stop` or `fail` step.
 */
export async function playTurn(steps: readonly Step[], turn: TurnContext): Promise<TurnEnd> {
  let stopReason: acp.StopReason = "end_turn";
  const outcome = await playSteps(steps, turn);
  if (outcome !== "next") {
    if ("fail" in outcome) return { kind: "error", error: outcome.fail };
    stopReason = outcome.stop;
  }
  if (turn.signal.aborted) stopReason = "cancelled";
  const response: acp.PromptResponse = { stopReason };
  if (turn.usage.reported) {
    const { inputTokens, outputTokens } = turn.usage;
    response.usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  }
  return { kind: "response", response };
}

/** Steps in order until one ends the turn or a cancel lands. */
async function playSteps(steps: readonly Step[], turn: TurnContext): Promise<StepOutcome> {
  for (const step of steps) {
    if (turn.signal.aborted) break;
    const outcome = await playStep(step, turn);
    if (outcome !== "next") return outcome;
  }
  return "next";
}

/** `repeat`: its steps `times` times over, as if written out; a stop, fail or cancel ends it. */
async function playRepeat(repeat: { times: number; steps: readonly PlayableStep[] }, turn: TurnContext): Promise<StepOutcome> {
  for (let round = 0; round < repeat.times && !turn.signal.aborted; round++) {
    const outcome = await playSteps(repeat.steps, turn);
    if (outcome !== "next") return outcome;
  }
  return "next";
}

async function playStep(step: Step, turn: TurnContext): Promise<StepOutcome> {
  if ("repeat" in step) return playRepeat(step.repeat, turn);
  else if ("say" in step) await streamText(turn, "agent_message_chunk", step.say);
  else if ("think" in step) await streamText(turn, "agent_thought_chunk", step.think);
  else if ("plan" in step) {
    const entries = step.plan.map((entry) => ({ ...entry, priority: entry.priority ?? "medium" }));
    await sendUpdate(turn, { sessionUpdate: "plan", entries });
  } else if ("write" in step) return playWrite(turn, step.write);
  else if ("write_anywhere" in step) return playWrite(turn, step.write_anywhere);
  else if ("delete" in step) return playDelete(turn, step.delete);
  else if ("move" in step) return playMove(turn, step.move);
  else if ("run" in step) return playRun(turn, step.run);
  else if ("usage" in step) await reportUsage(turn, step.usage);
  else if ("model_call" in step) return playModelCall(turn, step.model_call);
  else if ("sleep" in step) await sleepUnlessCancelled(step.sleep, turn.signal);
  else if ("hang" in step) await hangThroughCancel(step.hang);
  else if ("wait_for" in step) await waitForFileUnlessCancelled(resolve(turn.session.cwd, step.wait_for), turn.signal);
  else if ("wait_for_notice" in step) await waitForNoticeUnlessCancelled(turn.session.notices, step.wait_for_notice, turn.signal);
  else if ("flood" in step) await floodMessages(turn, step.flood);
  else if ("stderr" in step) await turn.writeStderr(`${step.stderr}\n`);
  else if ("fail" in step) return { fail: step.fail };
  else if ("crash" in step) turn.exit(step.crash);
  else if ("stop" in step) return { stop: step.stop };
  else if ("update" in step) {
    // The SDK does not validate what it sends, so an update kind it does not know goes out
    // as-is through the same ordered write queue as every other message.
    await turn.client.notify("session/update", { sessionId: turn.session.id, update: step.update });
  } else if ("ask" in step) return playAsk(turn, step.ask);
  else if ("ext" in step) await turn.client.notify(step.ext.method, step.ext.params ?? {});
  else assertNever(step);
  return "next";
}

function assertNever(step: never): never {
  throw new Error(`unhandled step ${JSON.stringify(step)}`);
}
