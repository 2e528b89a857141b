import type { z } from "zod";
import type { stepValueSchemas } from "./step-schema.ts";
import { streamText } from "./text-steps.ts";
import type { StepOutcome, TurnContext } from "./turn-context.ts";

type ModelCallStep = z.infer<typeof stepValueSchemas.model_call>;

/**
 * `model_call`: what a real agent does between its tool calls, one or more streamed Anthropic
 * Messages requests to `ANTHROPIC_BASE_URL` with `ANTHROPIC_API_KEY` (as Baton's inference
 * proxy gives them), `parallel` at once, each read to its end. It says each answer's status; an
 * answer that is not 200 fails the turn as Claude Code does (`API Error: 403 …`), unless
 * `fail_on_error` is false. With `tools`, the model is offered them; a call it asks for is
 * neither run nor reported over ACP (an agent that hides work).
 */
export async function playModelCall(turn: TurnContext, step: ModelCallStep): Promise<StepOutcome> {
  const base = process.env["ANTHROPIC_BASE_URL"];
  const key = process.env["ANTHROPIC_API_KEY"] ?? "";
  if (base === undefined) return { fail: { code: -32603, message: "API Error: ANTHROPIC_BASE_URL is not set" } };
  const tools = (step.tools ?? []).map((name) => ({
    name,
    description: `the ${name} tool`,
    input_schema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  }));
  const request = { model: step.model ?? "claude-sonnet-4-5", max_tokens: step.max_tokens ?? 256, stream: true, messages: [{ role: "user", content: step.prompt ?? "Say hello." }] };
  const body = JSON.stringify(tools.length === 0 ? request : { ...request, tools });
  const call = async (): Promise<{ status: number; text: string }> => {
    try {
      const answer = await fetch(`${base.replace(/\/+$/, "")}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
        body,
        signal: turn.signal,
      });
      return { status: answer.status, text: await answer.text() };
    } catch (error) {
      return { status: 0, text: (error as Error).message };
    }
  };
  const answers = await Promise.all(Array.from({ length: step.parallel ?? 1 }, call));
  if (turn.signal.aborted) return { stop: "cancelled" };
  await streamText(turn, "agent_message_chunk", `model calls: ${answers.map((a) => a.status).join(", ")}\n`);
  const failed = answers.find((a) => a.status !== 200);
  if (failed !== undefined && step.fail_on_error !== false) return { fail: { code: -32603, message: `API Error: ${failed.status} ${failed.text.slice(0, 300)}` } };
  return "next";
}
