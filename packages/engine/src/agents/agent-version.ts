import { execFile } from "node:child_process";

/** An agent that does not print its version this fast is reported without one. */
export const VERSION_TIMEOUT_MS = 5_000;
/** Longest version line kept. */
const VERSION_MAX_CHARS = 80;

/**
 * Runs `path VERSION_ARGS` with the agent's environment and no input, and returns the first
 * line it prints (a `x.y.z` in it if there is one), or undefined when it fails or is slow.
 * Nothing is cached: the answer is for the agent as installed now.
 */
export function agentVersion(path: string, versionArgs: readonly string[], env: Record<string, string>, cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(path, [...versionArgs], { env, cwd, timeout: VERSION_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      if (error) return resolve(undefined);
      resolve(versionFrom(`${stdout}\n${stderr}`));
    });
    // An ACP agent that ignores --version reads its input: closed input ends it at once.
    child.stdin?.end();
  });
}

/** The version in a program's output: its first semver-looking token, else its first line. */
export function versionFrom(output: string): string | undefined {
  const line = output.split("\n").map((text) => text.trim()).find((text) => text.length > 0);
  if (line === undefined) return undefined;
  const semver = /\bv?(\d+\.\d+\.\d+(?:[-+][\w.-]+)?)\b/.exec(line);
  return semver?.[1] ?? line.slice(0, VERSION_MAX_CHARS);
}
