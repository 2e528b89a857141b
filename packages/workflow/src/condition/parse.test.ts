import assert from "node:assert/strict";
import { test } from "node:test";
import { isWorkflowError } from "../errors.ts";
import type { ConditionExpr } from "./ast.ts";
import { parseCondition, parseConditionOrThrow } from "./parse.ts";

const expr = (source: string): ConditionExpr => parseConditionOrThrow(source).expr;
const problem = (source: string) => {
  const result = parseCondition(source);
  assert.ok(!result.ok, `"${source}" is refused`);
  return `${result.problem.column}: ${result.problem.message}`;
};

test("clauses compare outcome, preferred_label, context.KEY or a bare KEY", () => {
  assert.deepEqual(expr("outcome=succeeded"), { kind: "compare", key: { scope: "outcome" }, op: "=", value: "succeeded" });
  assert.deepEqual(expr("preferred_label = Fix"), { kind: "compare", key: { scope: "preferred_label" }, op: "=", value: "Fix" });
  assert.deepEqual(expr("context.command.exit_code!=0"), { kind: "compare", key: { scope: "context", name: "command.exit_code" }, op: "!=", value: "0" });
  assert.deepEqual(expr("tests_passed=true"), { kind: "compare", key: { scope: "context", name: "tests_passed" }, op: "=", value: "true" });
});

test("every operator of the dialect", () => {
  const ops = ["context.n > 1", "context.n < 1", "context.n >= 1", "context.n <= 1", "context.log contains error", "context.v matches ^v\\d+", "x = 1", "x != 1"];
  assert.deepEqual(ops.map((source) => (expr(source) as { op: string }).op), [">", "<", ">=", "<=", "contains", "matches", "=", "!="]);
});

test("a bare key is a truthiness test, alone or joined", () => {
  assert.deepEqual(expr("ready"), { kind: "truthy", key: { scope: "context", name: "ready" } });
  assert.deepEqual(expr("context.a && b").kind, "and");
});

test("&& binds tighter than ||, ! applies to one clause, and chains stay flat", () => {
  const parsed = expr("outcome=succeeded && context.ready=true || context.override");
  assert.equal(parsed.kind, "or");
  assert.ok(parsed.kind === "or");
  assert.equal(parsed.operands[0]?.kind, "and");
  assert.equal(parsed.operands[1]?.kind, "truthy");
  assert.deepEqual(expr("!outcome=failed"), { kind: "not", operand: { kind: "compare", key: { scope: "outcome" }, op: "=", value: "failed" } });
  assert.deepEqual(expr("! ! a").kind, "not");
  const flat = expr("a && b && c");
  assert.ok(flat.kind === "and");
  assert.equal(flat.operands.length, 3);
});

test("quoted values may hold spaces and escaped quotes; bare values run to a space or && / ||", () => {
  assert.deepEqual((expr('context.msg contains "two words \\"q\\""') as { value: string }).value, 'two words "q"');
  const joined = expr("context.v matches ^(a|b)$&&x");
  assert.ok(joined.kind === "and");
  assert.deepEqual(joined.operands[0], { kind: "compare", key: { scope: "context", name: "v" }, op: "matches", value: "^(a|b)$" });
  assert.deepEqual((expr('x=""') as { value: string }).value, "");
});

test("outcome values are checked and stored in Baton's spelling, the dialect's aliases read too", () => {
  assert.deepEqual(["success", "fail", "partial_success", "SKIPPED", "partially_succeeded"].map((v) => (expr(`outcome=${v}`) as { value: string }).value), ["succeeded", "failed", "partially_succeeded", "skipped", "partially_succeeded"]);
  assert.equal(problem("outcome=sucess"), '9: "sucess" is not an outcome');
});

test("parse errors name the column and the problem", () => {
  assert.equal(problem(""), "1: the condition is empty");
  assert.equal(problem("outcome=succeeded &&"), "21: expected a key at the end of the condition");
  assert.equal(problem("outcome="), "9: expected a value after =");
  assert.equal(problem("(a || b) && c"), "1: the condition language has no parentheses");
  assert.equal(problem("a == b"), "3: == is not an operator of the dialect");
  assert.equal(problem("context.msg contains two words"), '26: expected && or || here, found "words"');
  assert.equal(problem("context.n > many"), '13: > compares numbers, and "many" is not one');
  assert.equal(problem("context.v matches (oops"), '19: "(oops" is not a valid regular expression');
  assert.equal(problem('x = "open'), "5: a quoted value is never closed");
  assert.equal(problem("a ~ b"), '3: expected an operator after the key, found "~ b"');
  assert.equal(problem("&& a"), '1: expected a key, found "&& a"');
});

test("parseConditionOrThrow throws a WorkflowError with the column and a fix", () => {
  assert.throws(() => parseConditionOrThrow("outcome="), (error: unknown) => isWorkflowError(error) && error.code === "bad_condition" && /column 9/.test(error.message) && error.hint !== undefined);
});
