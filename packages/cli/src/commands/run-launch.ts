import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { definedFields } from "@baton/protocol/core";

/** What a workflow run was started with, kept in its folder so a resume starts the same agents. */
/** `pr`: the built-in pipeline delivers by pull request (`--pr`); `validate`: the `--validate` commands; so a resume runs the same graph and checks. */
export type RunLaunch = { agent: string; model?: string | undefined; script?: string | undefined; pr?: boolean | undefined; validate?: readonly string[] | undefined };

const LAUNCH_FILE = "launch.json";
/** The fake agent's script, copied: the file given to `baton run` may change or go away before a resume. */
const SCRIPT_FILE = "script.json";

export async function saveLaunch(runDir: string, launch: RunLaunch): Promise<void> {
  if (launch.script !== undefined) await copyFile(launch.script, join(runDir, SCRIPT_FILE));
  const saved = definedFields({ agent: launch.agent, model: launch.model, script: launch.script === undefined ? undefined : SCRIPT_FILE, pr: launch.pr === true ? true : undefined, validate: launch.validate === undefined || launch.validate.length === 0 ? undefined : launch.validate });
  await writeFile(join(runDir, LAUNCH_FILE), `${JSON.stringify(saved)}\n`);
}

/** The launch a run was started with; undefined when it has none (a run made before launches were kept). */
export async function readLaunch(runDir: string): Promise<RunLaunch | undefined> {
  const text = await readFile(join(runDir, LAUNCH_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const value = JSON.parse(text) as { agent?: unknown; model?: unknown; script?: unknown; pr?: unknown; validate?: unknown };
  if (typeof value.agent !== "string") return undefined;
  return definedFields({
    agent: value.agent,
    model: typeof value.model === "string" ? value.model : undefined,
    script: typeof value.script === "string" ? join(runDir, value.script) : undefined,
    pr: value.pr === true ? true : undefined,
    validate: Array.isArray(value.validate) ? value.validate.filter((command): command is string => typeof command === "string") : undefined,
  });
}
