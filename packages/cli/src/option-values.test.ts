import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TIMEOUT_MS } from "@baton/engine/bounds";
import { isBatonError } from "@baton/engine/errors";
import { duration, each, nonEmpty, oneOf, positiveNumber, wholeNumber, type ValueReader } from "./option-values.ts";

function refused(read: ValueReader<unknown>, text: string): string {
  try {
    read(text);
  } catch (error) {
    assert.ok(isBatonError(error), String(error));
    assert.equal(error.code, "usage");
    return error.toLine();
  }
  assert.fail(`expected "${text}" to be refused`);
}

test("a whole number is decimal digits within its bounds: no sign, exponent, hex, fraction or unsafe integer", () => {
  const repeats = wholeNumber("--max-repeats", { min: 2, max: 100, example: 5 });
  assert.equal(repeats("2"), 2);
  assert.equal(repeats("100"), 100);
  assert.equal(refused(repeats, "101"), '--max-repeats: "101" is not a whole number from 2 to 100: pass --max-repeats with a number, like --max-repeats 5');
  for (const text of ["1", "", " 5", "+5", "-5", "5.0", "1e1", "0x10", "five"]) assert.match(refused(repeats, text), /is not a whole number from 2 to 100/, text);
  const after = wholeNumber("--after", { min: 0, example: 0, hint: "pass the last seq (or pos) you saw, or 0" });
  assert.equal(after("0"), 0);
  assert.equal(after(String(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  assert.equal(refused(after, "9007199254740992"), '--after: "9007199254740992" is not a whole number from 0 to 9007199254740991: pass the last seq (or pos) you saw, or 0');
  assert.match(refused(after, "99999999999999999999"), /is not a whole number from 0/);
});

test("a positive number takes decimals, and nothing at or below zero, infinite or in another notation", () => {
  const cost = positiveNumber("--max-cost", { example: "2.5" });
  assert.equal(cost("2.5"), 2.5);
  assert.equal(cost(".5"), 0.5);
  assert.equal(cost("3"), 3);
  for (const text of ["0", "-1", "", "1e400", "Infinity", "0x10", "2,5"]) {
    assert.equal(refused(cost, text), `--max-cost: "${text}" is not a positive number: pass --max-cost with a number, like --max-cost 2.5`, text);
  }
});

test("a duration is above zero and no longer than a timer can wait: 597h is refused, not run with a 1 ms timer", () => {
  const timeout = duration("--timeout");
  assert.equal(timeout("30m"), 1_800_000);
  assert.equal(timeout("596h31m23s"), MAX_TIMEOUT_MS);
  assert.equal(refused(timeout, "597h"), '--timeout: "597h" is longer than 596h31m23s, the longest Baton\'s timers can wait: give a shorter one, like "24h"');
  assert.match(refused(timeout, "9".repeat(400)), /is (not a duration|longer than)/);
  assert.match(refused(timeout, "0"), /--timeout: "0" is no time at all/);
  assert.match(refused(duration("BATON_TIMEOUT"), "soon"), /^BATON_TIMEOUT: "soon" is not a duration: write it like "90s"/);
});

test("a word from a set is one of its words, and the refusal lists them", () => {
  const status = oneOf("--status", "a run status", ["running", "failed"]);
  assert.equal(status("failed"), "failed");
  assert.equal(refused(status, "bogus"), '--status: "bogus" is not a run status: pass one of running, failed');
  assert.match(refused(status, "Failed"), /is not a run status/);
});

test("a text value is never empty; a repeatable option reads each of its values", () => {
  const model = nonEmpty("--model", "a model name");
  assert.equal(model("sonnet"), "sonnet");
  assert.equal(refused(model, ""), "--model is empty: give it a model name, or leave --model out");
  assert.match(refused(model, "  "), /--model is empty/);
  const hosts = each(nonEmpty("--allow-host", "a host name"));
  assert.deepEqual(hosts("b", hosts("a", [])), ["a", "b"]);
  assert.throws(() => hosts("", ["a"]), /--allow-host is empty/);
});
