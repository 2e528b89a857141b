import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { isSecretVariable } from "../redaction/secrets.ts";

/** What {@link hideSecretEnvironment} did: the variables it took out, or why it could not. */
export type HiddenEnvironment = { hidden: string[] } | { failed: string };

/** Fields of `/proc/<pid>/stat` (counted from 1, see proc(5)) that bound the environment block. */
const ENV_START_FIELD = 50;
const ENV_END_FIELD = 51;

/**
 * Takes the secret variables (see `isSecretVariable`) out of this process: out of `env`
 * (`process.env`: they are unset), and out of the environment block the kernel shows as
 * `/proc/<pid>/environ`, which keeps the strings the process was started with whatever is
 * unset later. Their values there are overwritten with NUL bytes through `/proc/self/mem`
 * (as `setproctitle` overwrites the same region in C). Call it at start-up, after keeping a
 * copy of the environment for what needs it (redaction, the agents' own variables).
 *
 * Linux only; elsewhere, or where `/proc` is not writable, nothing is cleared and the reason is
 * returned. A process of the same user that may read this one's memory can still find the
 * secrets in the copy: this only keeps them out of the block anyone with `environ` access reads.
 */
export function hideSecretEnvironment(env: NodeJS.ProcessEnv): HiddenEnvironment {
  let block: Buffer;
  let start: number;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // The fields after the command name start with field 3 (state).
    start = Number(fields[ENV_START_FIELD - 3]);
    const end = Number(fields[ENV_END_FIELD - 3]);
    block = readFileSync("/proc/self/environ");
    if (!(start > 0) || end - start !== block.length) return { failed: "the environment block's bounds are not in /proc/self/stat" };
  } catch (error) {
    return { failed: (error as Error).message };
  }
  const secrets = secretEntries(block);
  if (secrets.length === 0) return { hidden: [] };
  // Unset first: nothing may still point at a value once its bytes are gone.
  for (const { name } of secrets) delete env[name];
  let fd: number | undefined;
  try {
    fd = openSync("/proc/self/mem", "r+");
    for (const { valueStart, valueEnd } of secrets) {
      const length = valueEnd - valueStart;
      writeSync(fd, Buffer.alloc(length), 0, length, start + valueStart);
    }
  } catch (error) {
    return { failed: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return { hidden: secrets.map((entry) => entry.name) };
}

type SecretEntry = { name: string; valueStart: number; valueEnd: number };

/** The `NAME=value` entries of a NUL-separated environment block that hold secrets, with the value's byte range. */
export function secretEntries(block: Buffer): SecretEntry[] {
  const entries: SecretEntry[] = [];
  let offset = 0;
  while (offset < block.length) {
    const nul = block.indexOf(0, offset);
    const end = nul === -1 ? block.length : nul;
    const equals = block.indexOf(0x3d, offset);
    if (equals !== -1 && equals < end) {
      const name = block.toString("utf8", offset, equals);
      if (isSecretVariable(name, block.toString("utf8", equals + 1, end))) entries.push({ name, valueStart: equals + 1, valueEnd: end });
    }
    offset = end + 1;
  }
  return entries;
}
