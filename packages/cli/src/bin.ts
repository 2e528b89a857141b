import { hideSecretEnvironment } from "@baton/engine/isolation";
import { main } from "./program.ts";

// Baton's own copy of its environment: it redacts these secrets and passes some to agents. The
// process keeps none of them where /proc/<pid>/environ shows them to anyone who may look. Where
// that cannot be done (no /proc), the agent's user namespace still keeps the block out of its
// reach, and a run whose agent has none says so (`agent_not_isolated`).
const env = { ...process.env };
hideSecretEnvironment(process.env);

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

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  interactive: process.stdin.isTTY === true,
});
process.exitCode = code;
