/** Lines of a failing command's output that a message, an event or a fix prompt quotes. */
export const TAIL_LINES = 30;
/** ... and at most this many characters of them: a fix prompt is read by a model. */
export const TAIL_CHARS = 4_000;

/** The last lines of a command's output, without trailing blank lines. */
export function outputTail(output: string, lines = TAIL_LINES, chars = TAIL_CHARS): string {
  const kept = output.replace(/\s+$/, "").split("\n").slice(-lines).join("\n");
  return kept.length > chars ? `…${kept.slice(-(chars - 1))}` : kept;
}
