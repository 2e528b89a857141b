import assert from "node:assert/strict";
import { test } from "node:test";
import { InputQueue } from "./input-queue.ts";

function sink() {
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  return { events, append: (type: string, data: Record<string, unknown>) => void events.push({ type, data }), redactText: (text: string) => text.replaceAll("sk-secret", "[REDACTED]") };
}

test("an input is redacted, then queued with its id and sender; the listeners are told", () => {
  const out = sink();
  const queue = new InputQueue(out, { maxChars: 100, maxQueued: 2 });
  let told = 0;
  queue.onQueued(() => (told += 1));
  queue.offer({ id: "in_1", by: "ada", text: "  use key sk-secret  " });
  assert.deepEqual(out.events, [{ type: "input.queued", data: { id: "in_1", by: "ada", text: "use key [REDACTED]", chars: 18 } }]);
  assert.equal(told, 1);
  assert.deepEqual(queue.take(), [{ id: "in_1", by: "ada", text: "use key [REDACTED]" }]);
  assert.equal(queue.size, 0);
});

test("too long (after redaction), empty, and too many waiting are rejected with their code; nothing is queued", () => {
  const out = sink();
  const queue = new InputQueue(out, { maxChars: 10, maxQueued: 1 });
  queue.offer({ id: "in_1", by: "ada", text: "x".repeat(11) });
  queue.offer({ id: "in_2", by: "ada", text: "   " });
  queue.offer({ id: "in_3", by: "ada", text: "fits" });
  queue.offer({ id: "in_4", by: "ada", text: "one more" });
  assert.deepEqual(
    out.events.map((event) => [event.type, event.data["id"], event.data["code"]]),
    [
      ["input.rejected", "in_1", "too_long"],
      ["input.rejected", "in_2", "too_long"],
      ["input.queued", "in_3", undefined],
      ["input.rejected", "in_4", "too_many"],
    ],
  );
  assert.match(String(out.events[0]?.data["message"]), /11 characters, more than the 10/);
});

test("delivered records each input with how and where; closing rejects what still waits, and what comes after", () => {
  const out = sink();
  const queue = new InputQueue(out, { maxChars: 100, maxQueued: 5 });
  queue.offer({ id: "in_1", by: "ada", text: "a" });
  queue.delivered(queue.take(), "next_turn", { session: "ses_1", turn: 2 });
  queue.offer({ id: "in_2", by: "ada", text: "b" });
  queue.close();
  queue.offer({ id: "in_3", by: "ada", text: "c" });
  assert.deepEqual(
    out.events.filter((event) => event.type !== "input.queued").map((event) => event.data),
    [
      { id: "in_1", how: "next_turn", session: "ses_1", turn: 2 },
      { id: "in_2", code: "not_running", message: "the run ended before the input reached its agent" },
      { id: "in_3", code: "not_running", message: "the run's agent has finished" },
    ],
  );
});
