import { spawn } from "node:child_process";

/**
 * Output kept from one command. A `run` step's output travels in one ACP message and then in
 * Baton's trace; a runaway command must not make either huge. Past it the output is cut, and
 * a last line says so with the whole length (see {@link cutLine}): the length Baton records
 * is of what the agent sent, so the cut must show there.
 */
export const MAX_COMMAND_OUTPUT_CHARS = 64 * 1024;

/** The line after a cut output: where it was cut, and how long the whole output was. */
export function cutLine(keptChars: number, totalChars: number): string {
  return `[fake agent: output cut at ${keptChars} of ${totalChars} characters]`;
}

export type CommandResult = {
  /** Null when the command was killed by a signal (a cancel). */
  exitCode: number | null;
  /** Stdout and stderr interleaved in the order they arrived. */
  output: string;
};

/**
 * Runs `sh -c command` in `cwd`. The command gets its own process group so that an abort kills
 * everything it started (`sh -c "a; sleep 60"` forks; killing only `sh` would leave `sleep`
 * holding the pipes open and the step waiting).
 */
export function runShellCommand(command: string, cwd: string, signal: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let totalChars = 0;
    let cut = false;
    const collect = (text: string): void => {
      totalChars += text.length;
      if (cut) return;
      const room = MAX_COMMAND_OUTPUT_CHARS - output.length;
      if (text.length <= room) {
        output += text;
        return;
      }
      // The kept text stays a prefix of the output, and never ends inside a surrogate pair.
      const kept = text.slice(0, room);
      output += /[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept;
      cut = true;
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group already exited between the abort and the kill; nothing to do.
      }
    };
    signal.addEventListener("abort", killGroup, { once: true });
    child.once("error", (error) => {
      signal.removeEventListener("abort", killGroup);
      reject(error);
    });
    child.once("close", (exitCode) => {
      signal.removeEventListener("abort", killGroup);
      resolve({ exitCode, output: cut ? `${output}\n${cutLine(output.length, totalChars)}` : output });
    });
    if (signal.aborted) killGroup();
  });
}
