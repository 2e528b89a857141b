import { parseArgs } from "node:util";
import { loadScript, parseScript } from "./script.ts";
import type { Script } from "./script.ts";

const USAGE = "usage: bin.ts --script FILE | --script-json JSON";

/**
 * Reads the script named by the command line: `--script FILE` or `--script-json JSON`.
 *
 * @throws Error with a one-line message for a bad command line or a bad script.
 */
export async function readScriptFromArgs(args: string[]): Promise<Script> {
  let values: { script?: string; "script-json"?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { script: { type: "string" }, "script-json": { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${USAGE}`, { cause: error });
  }
  const { script: file, "script-json": json } = values;
  if (file !== undefined && json !== undefined) throw new Error(`give one of --script and --script-json; ${USAGE}`);
  if (file !== undefined) return loadScript(file);
  if (json !== undefined) return parseScript(json, "--script-json");
  throw new Error(`no script given; ${USAGE}`);
}
