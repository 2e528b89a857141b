import assert from "node:assert/strict";
import { test } from "node:test";
import { checkContent, contentFromPairs, describeField, pairsFromLine } from "./form-content.ts";
import { formFields } from "./form-fields.ts";

const { fields } = formFields({
  properties: {
    db: { type: "string", oneOf: [{ const: "postgres", title: "PostgreSQL" }, { const: "sqlite" }] },
    email: { type: "string", format: "email" },
    day: { type: "string", format: "date" },
    code: { type: "string", pattern: "^[A-Z]{3}$", minLength: 3, maxLength: 3 },
    size: { type: "number", minimum: 0.5, maximum: 2 },
    count: { type: "integer", minimum: 1, maximum: 3 },
    ok: { type: "boolean" },
    tags: { type: "array", minItems: 1, maxItems: 2, items: { anyOf: [{ const: "a", title: "A" }, { const: "b", title: "B" }, { const: "c", title: "C" }] } },
    odd: { type: "_custom" },
  },
  required: ["db"],
});

function refusal(content: unknown): string {
  try {
    checkContent("q_1", fields, content);
  } catch (error) {
    assert.equal((error as { code: string }).code, "invalid_answer");
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(content)}`);
}

test("a reply that fills the form goes through as given", () => {
  const content = { db: "sqlite", email: "ada@example.com", day: "2026-12-01", code: "ABC", size: 1.5, count: 3, ok: false, tags: ["a", "c"] };
  assert.deepEqual(checkContent("q_1", fields, content), content);
  assert.deepEqual(checkContent("q_1", fields, { db: "postgres" }), { db: "postgres" });
});

test("each field's type and bounds are checked, and the message names the field and what it takes", () => {
  const cases: Array<[unknown, string]> = [
    [[], "question q_1: the answer's content must be an object of field values"],
    [{}, 'question q_1: field "db" is required'],
    [{ db: "oracle" }, 'question q_1: field "db" must be one of postgres, sqlite, not "oracle"'],
    [{ db: 1 }, 'question q_1: field "db" takes text, not 1'],
    [{ db: "sqlite", email: "not-mail" }, 'question q_1: field "email" must be an email, not "not-mail"'],
    [{ db: "sqlite", day: "yesterday" }, 'question q_1: field "day" must be a date, not "yesterday"'],
    [{ db: "sqlite", code: "abc" }, 'question q_1: field "code" must match ^[A-Z]{3}$'],
    [{ db: "sqlite", code: "AB" }, 'question q_1: field "code" takes at least 3 characters'],
    [{ db: "sqlite", size: 3 }, 'question q_1: field "size" must be at most 2, not 3'],
    [{ db: "sqlite", size: "1" }, 'question q_1: field "size" takes a number, not "1"'],
    [{ db: "sqlite", count: 1.5 }, 'question q_1: field "count" takes a whole number, not 1.5'],
    [{ db: "sqlite", count: 0 }, 'question q_1: field "count" must be at least 1, not 0'],
    [{ db: "sqlite", ok: "yes" }, 'question q_1: field "ok" takes true or false, not "yes"'],
    [{ db: "sqlite", tags: "a" }, 'question q_1: field "tags" takes a list of values, not "a"'],
    [{ db: "sqlite", tags: ["d"] }, 'question q_1: field "tags" takes values of a, b, c, not "d"'],
    [{ db: "sqlite", tags: ["a", "a"] }, 'question q_1: field "tags" takes each value once'],
    [{ db: "sqlite", tags: [] }, 'question q_1: field "tags" takes at least 1 values'],
    [{ db: "sqlite", tags: ["a", "b", "c"] }, 'question q_1: field "tags" takes at most 2 values'],
    [{ db: "sqlite", odd: "x" }, 'question q_1: field "odd" is of type _custom, which Baton cannot fill; leave it out'],
    [{ db: "sqlite", colour: "red" }, 'question q_1: the form has no field "colour"'],
  ];
  for (const [content, message] of cases) assert.equal(refusal(content), message, JSON.stringify(content));
});

test("FIELD=VALUE pairs are read as their fields' types; a several-of field takes one pair per value", () => {
  assert.deepEqual(contentFromPairs("q_1", fields, ["db=sqlite", "size=1.5", "count=2", "ok=yes", "tags=a", "tags=b", "code=A=B"]), { db: "sqlite", size: 1.5, count: 2, ok: true, tags: ["a", "b"], code: "A=B" });
  assert.throws(() => contentFromPairs("q_1", fields, ["db"]), { code: "invalid_answer", message: `question q_1: "db" is not FIELD=VALUE` });
  assert.throws(() => contentFromPairs("q_1", fields, ["size=big"]), /field "size" takes a number, not "big"/);
  assert.throws(() => contentFromPairs("q_1", fields, ["size="]), /field "size" takes a number, not ""/);
  assert.throws(() => contentFromPairs("q_1", fields, ["ok=maybe"]), /field "ok" takes true or false, not "maybe"/);
  assert.throws(() => contentFromPairs("q_1", fields, ["db=a", "db=b"]), /field "db" is given twice/);
  assert.throws(() => contentFromPairs("q_1", fields, ["nope=1"]), /the form has no field "nope"/);
  assert.equal(describeField(fields[0]!), "db (one of postgres | sqlite)");
  assert.equal(describeField(fields[7]!), "tags? (several of a | b | c)");
  assert.equal(describeField(fields[1]!), "email? (email)");
});

test("a typed line splits into pairs where a field's name and = follow a space, so values may hold spaces", () => {
  assert.deepEqual(pairsFromLine(fields, "  db=sqlite code=A B  tags=a tags=b "), ["db=sqlite", "code=A B", "tags=a", "tags=b"]);
  assert.deepEqual(pairsFromLine(fields, "sqlite please db=sqlite"), ["sqlite please", "db=sqlite"]);
  assert.deepEqual(pairsFromLine(fields, "db=x=y"), ["db=x=y"]);
  assert.deepEqual(pairsFromLine(fields, "   "), []);
  assert.deepEqual(pairsFromLine([], "db=x"), ["db=x"]);
});
