import { parseArgs } from "node:util";
import { loadScript, parseScript } from "./script.ts";
import type { Script } from "./script.ts";

const USAGE = "usage: bin.ts (--script FILE | --script-json JSON) [--model M] [--fixed-model M] | --version";

/** The environment variable the fake agent takes its starting model from (for `--model` by env). */
export const FAKE_MODEL_ENV = "FAKE_AGENT_MODEL";
/** The model the fake agent reports when nothing chose one. */
export const FAKE_DEFAULT_MODEL = "fake-model";

/** What the command line asks of the fake agent. */
export type FakeAgentArgs =
  | { kind: "version" }
  | {
      kind: "serve";
      script: Script;
      /** The model its sessions start with. */
      model: string;
      /** Sessions keep this model whatever the client asks (to test a model mismatch). */
      fixedModel?: string;
    };

/**
 * Reads the fake agent's command line: `--script FILE` or `--script-json JSON`, the starting
 * model (`--model`, else $FAKE_AGENT_MODEL, else "fake-model"), `--fixed-model` for an agent
 * that ignores model choices, or `--version`.
 *
 * @throws Error with a one-line message for a bad command line or a bad script.
 */
export async function readFakeAgentArgs(args: string[], env: Record<string, string | undefined> = {}): Promise<FakeAgentArgs> {
  let values: { script?: string; "script-json"?: string; model?: string; "fixed-model"?: string; version?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        script: { type: "string" },
        "script-json": { type: "string" },
        model: { type: "string" },
        "fixed-model": { type: "string" },
        version: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${USAGE}`, { cause: error });
  }
  if (values.version) return { kind: "version" };
  const script = await readScript(values.script, values["script-json"]);
  const fixedModel = values["fixed-model"];
  const model = fixedModel ?? values.model ?? nonEmpty(env[FAKE_MODEL_ENV]) ?? FAKE_DEFAULT_MODEL;
  return { kind: "serve", script, model, ...(fixedModel === undefined ? {} : { fixedModel }) };
}

/** Reads the script named by the command line: `--script FILE` or `--script-json JSON`. */
export async function readScriptFromArgs(args: string[]): Promise<Script> {
  const parsed = await readFakeAgentArgs(args);
  if (parsed.kind !== "serve") throw new Error(`no script given; ${USAGE}`);
  return parsed.script;
}

async function readScript(file: string | undefined, json: string | undefined): Promise<Script> {
  if (file !== undefined && json !== undefined) throw new Error(`give one of --script and --script-json; ${USAGE}`);
  if (file !== undefined) return loadScript(file);
  if (json !== undefined) return parseScript(json, "--script-json");
  throw new Error(`no script given; ${USAGE}`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.length === 0 ? undefined : value;
}
