import { inspect } from "node:util";
import { main } from "./program.ts";
import { visibleText } from "./render/terminal-text.ts";

const controller = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals) => {
  interrupts += 1;
  // A second Ctrl-C means "now": leave the run for the next command to recover.
  if (interrupts > 1) process.exit(130);
  controller.abort({ by: "user", reason: signal === "SIGINT" ? "interrupted (Ctrl-C)" : `received ${signal}` });
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  // `baton events | head` closes the pipe early: that is not an error.
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

try {
  process.exitCode = await main(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    interactive: process.stdin.isTTY === true,
  });
} catch (error) {
  // Not an expected failure (those are one line, from main): a bug, whose stack is for a
  // report. Its message may still quote foreign text (a path, an agent's words).
  process.stderr.write(`${visibleText(inspect(error), { keepNewlines: true })}\n`);
  process.exitCode = 1;
}
