import { visibleText } from "./render/terminal-text.ts";

/**
 * Prints Baton's own process warnings (codes `BATON_*`: a malformed log line, a damaged
 * index.db moved aside) as one line each, `baton: …`, like its errors (their paths and
 * quoted text made visible, never terminal controls); Node's listener keeps
 * printing every other warning its way (`(node:PID) …` and a hint on a second line).
 */
export function printBatonWarnings(stderr: NodeJS.WritableStream): void {
  const others = process.listeners("warning");
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    const code = (warning as Error & { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("BATON_")) stderr.write(`baton: ${visibleText(warning.message)}\n`);
    else for (const listener of others) listener(warning);
  });
}
