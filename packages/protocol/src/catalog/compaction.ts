import { z } from "zod";
import { defineEvent } from "./shared.ts";

export const agentCompacted = defineEvent(
  "agent.compacted",
  "The agent compacted its context (summarized the conversation to free room). Reported by the agent (`inferred` false: a tool call it titles \"Compacting context\" that completes; `context_before` is its last context reading), or `inferred`: the agent did not say so, but the context it reports fell below half of its last reading; `context_before` and `context_after` are those readings, in tokens.",
  z.looseObject({
    session: z.string().min(1),
    turn: z.number().int().min(1).optional(),
    inferred: z.boolean(),
    context_before: z.number().int().min(0).optional(),
    context_after: z.number().int().min(0).optional(),
  }),
);
