import { z } from "zod";
import { defineEvent } from "./shared.ts";

const provider = z.enum(["anthropic", "openai", "gemini"]);
const api = z.enum(["anthropic_messages", "openai_chat", "openai_responses", "gemini"]);
const tokens = z.number().int().min(0);

export const modelRequestCompleted = defineEvent(
  "model.request.completed",
  "One model call the agent made through Baton's inference proxy ended: its upstream `status` (null when the connection failed: see `error`), time to the answer's headers and in all, the tokens read from the answer (`usage_reported` false when it held none) and their cost from the price table (`cost_source`: `config`, `table` or `unpriced`), and the names of the tools the model asked to call (`tool_calls`). The proxy never retries: every attempt is one event.",
  z.looseObject({
    request_id: z.string().min(1),
    provider,
    api,
    model: z.string(),
    stream: z.boolean(),
    status: z.number().int().nullable(),
    ttfb_ms: z.number().min(0).optional(),
    duration_ms: z.number().min(0),
    input_tokens: tokens,
    output_tokens: tokens,
    cache_read_tokens: tokens,
    cache_write_tokens: tokens,
    usage_reported: z.boolean(),
    cost_usd: z.number().min(0),
    cost_source: z.enum(["config", "table", "unpriced"]),
    tool_calls: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
);

export const modelRequestRefused = defineEvent(
  "model.request.refused",
  "Baton's inference proxy refused a model call before it reached the upstream: the run's request cap, token or cost budget (`limit`) would be passed. The agent got a 403 in its provider's error shape; the session is cancelled.",
  z.looseObject({
    request_id: z.string().min(1),
    provider,
    api,
    model: z.string(),
    status: z.literal(403),
    limit: z.enum(["requests", "tokens", "cost"]),
    message: z.string(),
  }),
);
