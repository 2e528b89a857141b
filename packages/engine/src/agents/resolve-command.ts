import { constants } from "node:fs";
import { access, open } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** Where a command was found, or why it was not. */
export type ResolvedCommand = { found: true; path: string } | { found: false; reason: string };

/** Bytes read from an executable to find a `#!` interpreter line. */
const SHEBANG_BYTES = 256;

/**
 * Finds `command` as the agent would: a name is looked up on `path` (the agent's PATH), a
 * path with a `/` is taken relative to `cwd`. A script is only usable if its `#!` interpreter
 * is found too: `claude-agent-acp` is a node script, and an agent PATH without `node` cannot
 * start it.
 */
export async function resolveCommand(command: string, path: string | undefined, cwd: string): Promise<ResolvedCommand> {
  const found = await findExecutable(command, path, cwd);
  if (found === undefined) {
    return { found: false, reason: command.includes("/") ? `${command} is not an executable file` : `${command} is not on the agent's PATH` };
  }
  const interpreter = await shebangInterpreter(found);
  if (interpreter !== undefined && (await findExecutable(interpreter, path, cwd)) === undefined) {
    return { found: false, reason: `${found} needs ${interpreter}, which is not on the agent's PATH` };
  }
  return { found: true, path: found };
}

async function findExecutable(command: string, path: string | undefined, cwd: string): Promise<string | undefined> {
  if (command.includes("/")) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutable(full)) ? full : undefined;
  }
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir.length === 0) continue;
    const candidate = resolve(cwd, join(dir, command));
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    const handle = await open(file, "r");
    try {
      return (await handle.stat()).isFile();
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** The program a `#!` line runs: `node` for `#!/usr/bin/env node`, else the path given. */
async function shebangInterpreter(file: string): Promise<string | undefined> {
  const handle = await open(file, "r");
  let head: string;
  try {
    const buffer = Buffer.alloc(SHEBANG_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SHEBANG_BYTES, 0);
    head = buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
  if (!head.startsWith("#!")) return undefined;
  const words = (head.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const [program, ...rest] = words;
  if (program === undefined || program.length === 0) return undefined;
  if (program.endsWith("/env")) return rest.find((word) => !word.startsWith("-") && !word.includes("="));
  return program;
}
