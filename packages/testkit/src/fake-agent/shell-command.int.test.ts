import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { cutLine, MAX_COMMAND_OUTPUT_CHARS, runShellCommand } from "./shell-command.ts";

const run = (command: string) => runShellCommand(command, tmpdir(), new AbortController().signal);
/** `count` times the letter, printed by the shell. */
const letters = (count: number, letter: string) => `head -c ${count} /dev/zero | tr '\\0' ${letter}`;

/** Compared by length and ends: a failed comparison of 64 KiB strings would print them whole. */
function assertCut(output: string, kept: string, totalChars: number): void {
  const line = cutLine(MAX_COMMAND_OUTPUT_CHARS, totalChars);
  assert.equal(output.length, MAX_COMMAND_OUTPUT_CHARS + 1 + line.length, "the cap's worth of output, a newline, the line");
  assert.ok(output.startsWith(kept), "the kept part is the output's start");
  assert.equal(output.slice(MAX_COMMAND_OUTPUT_CHARS), `\n${line}`);
}

test("a command's output past the cap is cut at exactly the cap, and a last line says so with the whole length", async () => {
  // 1,000,000 characters come in 64 KiB reads: the first one fills the cap exactly, which once hid the cut.
  const big = await run(letters(1_000_000, "a"));
  assert.equal(big.exitCode, 0);
  assertCut(big.output, "a".repeat(MAX_COMMAND_OUTPUT_CHARS), 1_000_000);
  assert.equal(cutLine(MAX_COMMAND_OUTPUT_CHARS, 1_000_000), "[fake agent: output cut at 65536 of 1000000 characters]");

  const mixed = await run(`seq 1 3000; ${letters(100_000, "b")}`);
  const whole = `${Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join("")}${"b".repeat(100_000)}`;
  assertCut(mixed.output, whole.slice(0, MAX_COMMAND_OUTPUT_CHARS), whole.length);
});

test("an output at or under the cap is whole, with no line added", async () => {
  const exact = await run(letters(MAX_COMMAND_OUTPUT_CHARS, "c"));
  assert.equal(exact.output.length, MAX_COMMAND_OUTPUT_CHARS);
  assert.equal(exact.output, "c".repeat(MAX_COMMAND_OUTPUT_CHARS));
  assert.equal((await run("echo short")).output, "short\n");
});
