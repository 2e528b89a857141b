import { WorkflowError } from "../errors.ts";
import { outcomeNamed, type Condition, type ConditionExpr, type ConditionKey, type ConditionOperator } from "./ast.ts";

/** Why a condition does not parse: a 1-based column in the condition's text, the problem, the fix. */
export type ConditionSyntaxProblem = { column: number; message: string; fix: string };

export type ConditionParseResult = { ok: true; condition: Condition } | { ok: false; problem: ConditionSyntaxProblem };

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*/;
const NUMERIC_OPERATORS: readonly ConditionOperator[] = [">", "<", ">=", "<="];

/**
 * Parses an edge condition of the dialect:
 *
 *   expr   := and ('||' and)*        and := unary ('&&' unary)*       unary := '!' unary | clause
 *   clause := key op value | key     (a bare key: is the value truthy?)
 *   op     := = != > < >= <= contains matches      value := word | "quoted"
 *
 * `&&` binds tighter than `||`; the dialect has no parentheses (a `(` in a bare value, as in a
 * regular expression, is part of the value). Keys are `outcome`, `preferred_label`,
 * `context.KEY`, or a bare `KEY` (short for `context.KEY`). Outcome values are checked and
 * stored in Baton's spelling; numeric comparisons need a number and `matches` a valid
 * regular expression, so a condition that parses cannot fail when it is evaluated.
 *
 * @example parseCondition("outcome=success && context.tests_passed") // { ok: true, condition: … }
 */
export function parseCondition(source: string): ConditionParseResult {
  try {
    return { ok: true, condition: { source, expr: new ConditionParser(source).parse() } };
  } catch (error) {
    if (error instanceof ProblemAt) return { ok: false, problem: error.problem };
    throw error;
  }
}

/** `parseCondition` for code that writes conditions itself (the builder): a bad one throws. */
export function parseConditionOrThrow(source: string): Condition {
  const result = parseCondition(source);
  if (result.ok) return result.condition;
  const { column, message, fix } = result.problem;
  throw new WorkflowError("bad_condition", `condition "${source}", column ${column}: ${message}`, { hint: fix });
}

class ProblemAt extends Error {
  readonly problem: ConditionSyntaxProblem;
  constructor(index: number, message: string, fix: string) {
    super(message);
    this.problem = { column: index + 1, message, fix };
  }
}

class ConditionParser {
  #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  parse(): ConditionExpr {
    this.#skipSpace();
    if (this.#at >= this.#text.length) throw new ProblemAt(0, "the condition is empty", "write a condition such as outcome=succeeded, or remove the attribute");
    const expr = this.#or();
    if (this.#at < this.#text.length) {
      throw new ProblemAt(this.#at, `expected && or || here, found "${this.#rest(12)}"`, 'join clauses with && or ||, and quote a value that has spaces ("…")');
    }
    return expr;
  }

  #or(): ConditionExpr {
    const operands = [this.#and()];
    while (this.#eat("||")) operands.push(this.#and());
    return operands.length === 1 ? (operands[0] as ConditionExpr) : { kind: "or", operands };
  }

  #and(): ConditionExpr {
    const operands = [this.#unary()];
    while (this.#eat("&&")) operands.push(this.#unary());
    return operands.length === 1 ? (operands[0] as ConditionExpr) : { kind: "and", operands };
  }

  #unary(): ConditionExpr {
    this.#skipSpace();
    if (this.#text[this.#at] === "!" && this.#text[this.#at + 1] !== "=") {
      this.#at++;
      return { kind: "not", operand: this.#unary() };
    }
    return this.#clause();
  }

  #clause(): ConditionExpr {
    this.#skipSpace();
    const start = this.#at;
    if (this.#text[start] === "(") {
      throw new ProblemAt(start, "the condition language has no parentheses", "drop the ( ): && binds tighter than ||, or split the condition over two edges");
    }
    const name = KEY.exec(this.#text.slice(start))?.[0];
    if (name === undefined) {
      throw new ProblemAt(start, this.#at >= this.#text.length ? "expected a key at the end of the condition" : `expected a key, found "${this.#rest(12)}"`, "write outcome, preferred_label, context.KEY or KEY");
    }
    this.#at += name.length;
    const key = keyNamed(name);
    this.#skipSpace();
    const op = this.#operator();
    if (op === undefined) return { kind: "truthy", key };
    this.#skipSpace();
    const valueAt = this.#at;
    const value = this.#value(op);
    return { kind: "compare", key, op, value: checkedValue(key, op, value, valueAt) };
  }

  #operator(): ConditionOperator | undefined {
    const rest = this.#text.slice(this.#at);
    if (rest.startsWith("==")) throw new ProblemAt(this.#at, "== is not an operator of the dialect", "write = for equality");
    for (const op of ["!=", ">=", "<=", "=", ">", "<"] as const) {
      if (rest.startsWith(op)) {
        this.#at += op.length;
        return op;
      }
    }
    const word = /^(contains|matches)(?=[\s"])/.exec(rest)?.[1] as ConditionOperator | undefined;
    if (word !== undefined) {
      this.#at += word.length;
      return word;
    }
    if (rest === "" || rest.startsWith("&&") || rest.startsWith("||")) return undefined;
    throw new ProblemAt(this.#at, `expected an operator after the key, found "${this.#rest(12)}"`, "use one of = != > < >= <= contains matches, or && / || after a bare key");
  }

  #value(op: ConditionOperator): string {
    const start = this.#at;
    if (this.#text[start] === '"') {
      let value = "";
      this.#at++;
      while (this.#at < this.#text.length) {
        const c = this.#text[this.#at] as string;
        if (c === '"') {
          this.#at++;
          return value;
        }
        if (c === "\\" && (this.#text[this.#at + 1] === '"' || this.#text[this.#at + 1] === "\\")) {
          value += this.#text[this.#at + 1];
          this.#at += 2;
        } else {
          value += c;
          this.#at++;
        }
      }
      throw new ProblemAt(start, "a quoted value is never closed", 'close it with "');
    }
    while (this.#at < this.#text.length && !/\s/.test(this.#text[this.#at] as string) && !this.#text.startsWith("&&", this.#at) && !this.#text.startsWith("||", this.#at)) this.#at++;
    if (this.#at === start) throw new ProblemAt(start, `expected a value after ${op}`, `write a value after ${op}, or "" for the empty string`);
    return this.#text.slice(start, this.#at);
  }

  #eat(operator: "&&" | "||"): boolean {
    this.#skipSpace();
    if (!this.#text.startsWith(operator, this.#at)) return false;
    this.#at += 2;
    return true;
  }

  #skipSpace(): void {
    while (this.#at < this.#text.length && /\s/.test(this.#text[this.#at] as string)) this.#at++;
  }

  #rest(length: number): string {
    const rest = this.#text.slice(this.#at);
    return rest.length > length ? `${rest.slice(0, length)}…` : rest;
  }
}

function keyNamed(name: string): ConditionKey {
  if (name === "outcome") return { scope: "outcome" };
  if (name === "preferred_label") return { scope: "preferred_label" };
  if (name.startsWith("context.") && name.length > "context.".length) return { scope: "context", name: name.slice("context.".length) };
  return { scope: "context", name };
}

/** The value as stored: checked against what the operator and key can compare. */
function checkedValue(key: ConditionKey, op: ConditionOperator, value: string, valueAt: number): string {
  if (key.scope === "outcome" && (op === "=" || op === "!=")) {
    const outcome = outcomeNamed(value);
    if (outcome === undefined) throw new ProblemAt(valueAt, `"${value}" is not an outcome`, "compare outcome with succeeded, failed, partially_succeeded or skipped");
    return outcome;
  }
  if (NUMERIC_OPERATORS.includes(op) && (value.trim() === "" || !Number.isFinite(Number(value)))) {
    throw new ProblemAt(valueAt, `${op} compares numbers, and "${value}" is not one`, `write a number after ${op}, or use = to compare text`);
  }
  if (op === "matches") {
    try {
      new RegExp(value);
    } catch {
      throw new ProblemAt(valueAt, `"${value}" is not a valid regular expression`, "fix the pattern (a JavaScript regular expression)");
    }
  }
  return value;
}
