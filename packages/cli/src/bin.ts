import { inspect } from "node:util";
import { hideSecretEnvironment } from "@baton/engine/isolation";
import { printBatonWarnings } from "./baton-warnings.ts";
import { main } from "./program.ts";
import { visibleText } from "./render/terminal-text.ts";
import { ENDING_SIGNALS, Interrupts } from "./process/interrupts.ts";
import { watchLauncher } from "./process/launcher-link.ts";
import { watchStdout } from "./process/stdout-watch.ts";

printBatonWarnings(process.stderr);

// A second interrupt means "now": leave the run for the next command to recover.
const interrupts = new Interrupts(() => process.exit(130));
for (const signal of ENDING_SIGNALS) process.on(signal, () => interrupts.receive(signal, "direct"));
watchLauncher(process.env, {
  signal: (signal) => interrupts.receive(signal, "launcher"),
  // The launcher was killed: end as abruptly as it did, agent and all (its input closes), so
  // that the run is left interrupted for the next command to recover, exactly as when Baton
  // itself is killed, and nothing goes on unattended.
  gone: () => process.kill(process.pid, "SIGKILL"),
});
const stdoutClosed = watchStdout(process.stdout, process.stderr);

// Baton's own copy of its environment (taken after the launcher's link variable is read and
// removed): it redacts these secrets and passes some to agents. The process keeps none of
// them where /proc/<pid>/environ shows them to anyone who may look. Where that cannot be
// done (no /proc), the agent's user namespace still keeps the block out of its reach, and a
// run whose agent has none says so (`agent_not_isolated`).
const env = { ...process.env };
hideSecretEnvironment(process.env);

try {
  process.exitCode = await main(process.argv.slice(2), {
    cwd: process.cwd(),
    env,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: interrupts.signal,
    stdoutClosed,
    interactive: process.stdin.isTTY === true,
  });
} catch (error) {
  // Not an expected failure (those are one line, from main): a bug, whose stack is for a
  // report. Its message may still quote foreign text (a path, an agent's words).
  process.stderr.write(`${visibleText(inspect(error), { keepNewlines: true })}\n`);
  process.exitCode = 1;
}
