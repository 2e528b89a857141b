import assert from "node:assert/strict";
import { test } from "node:test";
import { Interrupts } from "./interrupts.ts";

function interrupts() {
  let exits = 0;
  const subject = new Interrupts(() => (exits += 1));
  return { subject, exits: () => exits };
}

test("the first ending signal aborts with the reason a run records; a second one exits now", () => {
  const { subject, exits } = interrupts();
  subject.receive("SIGTERM", "direct");
  assert.deepEqual(subject.signal.reason, { by: "user", reason: "received SIGTERM" });
  assert.equal(exits(), 0);
  subject.receive("SIGINT", "direct");
  assert.equal(exits(), 1);
});

test("Ctrl-C names itself as such", () => {
  const { subject } = interrupts();
  subject.receive("SIGINT", "launcher");
  assert.deepEqual(subject.signal.reason, { by: "user", reason: "interrupted (Ctrl-C)" });
});

test("one Ctrl-C that arrives both directly and through the launcher is one interrupt, in either order", () => {
  for (const [first, second] of [["direct", "launcher"], ["launcher", "direct"]] as const) {
    const { subject, exits } = interrupts();
    subject.receive("SIGINT", first);
    subject.receive("SIGINT", second);
    assert.ok(subject.signal.aborted);
    assert.equal(exits(), 0, `${first} then ${second}`);
    // The second press, again both ways: now it is "now".
    subject.receive("SIGINT", first);
    assert.equal(exits(), 1);
    subject.receive("SIGINT", second);
    assert.equal(exits(), 1, "the echo of the second press changes nothing more");
  }
});

test("two signals sent to the launcher alone are two interrupts", () => {
  const { subject, exits } = interrupts();
  subject.receive("SIGTERM", "launcher");
  subject.receive("SIGTERM", "launcher");
  assert.equal(exits(), 1);
});
