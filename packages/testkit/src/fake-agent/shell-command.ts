import { spawn } from "node:child_process";

/**
 * Output kept from one command. A `run` step's output travels in one ACP message and then in
 * Baton's trace; a runaway command must not make either huge.
 */
export const MAX_COMMAND_OUTPUT_CHARS = 64 * 1024;

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
    const collect = (text: string): void => {
      if (output.length < MAX_COMMAND_OUTPUT_CHARS) output += text;
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
      const truncated = output.length > MAX_COMMAND_OUTPUT_CHARS;
      resolve({ exitCode, output: truncated ? `${output.slice(0, MAX_COMMAND_OUTPUT_CHARS)}\n[output truncated]` : output });
    });
    if (signal.aborted) killGroup();
  });
}
