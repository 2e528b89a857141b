import type { Key } from "ink";

/** A line being typed: its prompt, what it is for, and the text so far. */
export type TypedLine = { prompt: string; purpose: "steer" | "answer" | "reply"; text: string };

/** Longest line the UI takes (the run caps steering text again, by its `[input] max_chars`). */
const MAX_LINE = 20_000;

/**
 * One key applied to a line being typed: printable text is added, Backspace removes the last
 * character, Enter submits, Esc abandons. Returns the line, or what ended it.
 */
export function typeKey(line: TypedLine, input: string, key: Key): TypedLine | { submit: string } | { abandon: true } {
  if (key.escape) return { abandon: true };
  if (key.return) return { submit: line.text };
  if (key.backspace || key.delete) return { ...line, text: [...line.text].slice(0, -1).join("") };
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return line;
  // A paste arrives as one input: its line breaks become spaces (one line goes to the agent).
  const text = input.replace(/[\r\n]+/g, " ").replace(/[\u0000-\u001f\u007f]/g, "");
  return text === "" ? line : { ...line, text: (line.text + text).slice(0, MAX_LINE) };
}
