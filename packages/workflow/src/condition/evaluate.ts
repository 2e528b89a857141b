import { normalizeLabel } from "../gate/labels.ts";
import type { ConditionExpr, ConditionKey, Outcome } from "./ast.ts";

/** What a condition is evaluated against: the stage's outcome and signals, and the run's context. */
export type ConditionInput = {
  outcome: Outcome;
  preferredLabel?: string | undefined;
  /** The run's context: a flat map of JSON values (`command.exit_code` is one key). */
  context: Readonly<Record<string, unknown>>;
};

/**
 * Evaluates a parsed condition. Values compare as text (`context.count=3` holds for the number
 * 3); `> < >= <=` compare numbers and are false when the value is not one; `contains` is a
 * substring test, or membership for a list; `matches` tests a regular expression; a bare key
 * holds when its value is present, not empty, not `"false"` and not `"0"`. Preferred labels
 * compare with their accelerators stripped and case ignored.
 *
 * @example evaluateCondition(parseConditionOrThrow("outcome=succeeded").expr, { outcome: "succeeded", context: {} }) // true
 */
export function evaluateCondition(expr: ConditionExpr, input: ConditionInput): boolean {
  switch (expr.kind) {
    case "or":
      return expr.operands.some((operand) => evaluateCondition(operand, input));
    case "and":
      return expr.operands.every((operand) => evaluateCondition(operand, input));
    case "not":
      return !evaluateCondition(expr.operand, input);
    case "truthy":
      return isTruthy(lookup(expr.key, input));
    case "compare":
      return compare(expr, input);
  }
}

function compare(expr: Extract<ConditionExpr, { kind: "compare" }>, input: ConditionInput): boolean {
  const actual = lookup(expr.key, input);
  const label = expr.key.scope === "preferred_label";
  const equal = () => (label ? normalizeLabel(textOf(actual)) === normalizeLabel(expr.value) : textOf(actual) === expr.value);
  switch (expr.op) {
    case "=":
      return equal();
    case "!=":
      return !equal();
    case "contains":
      return Array.isArray(actual) ? actual.some((item) => textOf(item) === expr.value) : textOf(actual).includes(expr.value);
    case "matches":
      return new RegExp(expr.value).test(textOf(actual));
    default: {
      const left = numberOf(actual);
      const right = Number(expr.value);
      if (left === undefined) return false;
      if (expr.op === ">") return left > right;
      if (expr.op === "<") return left < right;
      if (expr.op === ">=") return left >= right;
      return left <= right;
    }
  }
}

function lookup(key: ConditionKey, input: ConditionInput): unknown {
  if (key.scope === "outcome") return input.outcome;
  if (key.scope === "preferred_label") return input.preferredLabel;
  return Object.hasOwn(input.context, key.name) ? input.context[key.name] : undefined;
}

/** A context value as text: strings as they are, other JSON values as JSON, nothing as "". */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function numberOf(value: unknown): number | undefined {
  const text = textOf(value).trim();
  if (text === "") return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  const text = textOf(value);
  return text !== "" && text !== "false" && text !== "0";
}
