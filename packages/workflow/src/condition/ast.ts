import { z } from "zod";

/** How a stage ends. Conditions, routing and goal gates speak these four words. */
export const OUTCOMES = ["succeeded", "failed", "partially_succeeded", "skipped"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The dialect's older spellings of the outcomes, read in conditions and routing signals
 * (`outcome=success` in a file written for them still means what it says).
 */
export const OUTCOME_ALIASES: Readonly<Record<string, Outcome>> = {
  success: "succeeded",
  fail: "failed",
  partial_success: "partially_succeeded",
};

/** The outcome a word names, in its own spelling or an alias; undefined for anything else. */
export function outcomeNamed(word: string): Outcome | undefined {
  const lower = word.toLowerCase();
  return (OUTCOMES as readonly string[]).includes(lower) ? (lower as Outcome) : OUTCOME_ALIASES[lower];
}

export const CONDITION_OPERATORS = ["=", "!=", ">", "<", ">=", "<=", "contains", "matches"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** What a clause reads: the stage's outcome, the preferred label, or one context key. */
export type ConditionKey = { scope: "outcome" } | { scope: "preferred_label" } | { scope: "context"; name: string };

export type ConditionExpr =
  | { kind: "or"; operands: ConditionExpr[] }
  | { kind: "and"; operands: ConditionExpr[] }
  | { kind: "not"; operand: ConditionExpr }
  | { kind: "compare"; key: ConditionKey; op: ConditionOperator; value: string }
  | { kind: "truthy"; key: ConditionKey };

/** An edge's condition: the text as written, and its expression, parsed once when the file is read. */
export type Condition = { source: string; expr: ConditionExpr };

const keySchema = z.discriminatedUnion("scope", [
  z.strictObject({ scope: z.literal("outcome") }),
  z.strictObject({ scope: z.literal("preferred_label") }),
  z.strictObject({ scope: z.literal("context"), name: z.string().min(1) }),
]);

export const conditionExprSchema: z.ZodType<ConditionExpr> = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("or"), operands: z.array(conditionExprSchema).min(2) }),
    z.strictObject({ kind: z.literal("and"), operands: z.array(conditionExprSchema).min(2) }),
    z.strictObject({ kind: z.literal("not"), operand: conditionExprSchema }),
    z.strictObject({ kind: z.literal("compare"), key: keySchema, op: z.enum(CONDITION_OPERATORS), value: z.string() }),
    z.strictObject({ kind: z.literal("truthy"), key: keySchema }),
  ]),
);

export const conditionSchema = z.strictObject({ source: z.string(), expr: conditionExprSchema });
