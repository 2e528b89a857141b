import { parseArgs } from "node:util";
import type { ModelTwinOptions } from "./model-twin.ts";
import { parseScenario, ScenarioError } from "./scenario.ts";

const USAGE =
  "usage: bin.ts [--port N] [--host H] [--scenario NAME|JSON] [--path P] [--content C] [--command CMD] [--reply TEXT] [--log FILE]";

/**
 * Reads the twin's command line. `--scenario` is a name (`write`) or a JSON scenario object;
 * `--path`, `--content`, `--command` and `--reply` fill in the named scenario's fields.
 *
 * @throws Error with a one-line message for a bad command line or scenario.
 */
export function readTwinArgs(args: string[]): ModelTwinOptions {
  let values: Partial<Record<"port" | "host" | "scenario" | "path" | "content" | "command" | "reply" | "log", string>>;
  try {
    ({ values } = parseArgs({
      args,
      options: Object.fromEntries(["port", "host", "scenario", "path", "content", "command", "reply", "log"].map((name) => [name, { type: "string" }])),
      strict: true,
      allowPositionals: false,
    }) as { values: typeof values });
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${USAGE}`, { cause: error });
  }
  const port = Number(values.port ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be an integer from 0 to 65535; ${USAGE}`);
  const text = values.scenario ?? "text";
  let base: unknown = { name: text };
  if (text.trimStart().startsWith("{")) {
    try {
      base = JSON.parse(text);
    } catch (error) {
      throw new Error(`--scenario is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  const fields = Object.fromEntries(Object.entries({ path: values.path, content: values.content, command: values.command, reply: values.reply }).filter(([, v]) => v !== undefined));
  try {
    const scenario = parseScenario({ ...(base as object), ...fields });
    return { port, host: values.host ?? "127.0.0.1", scenario, ...(values.log === undefined ? {} : { logFile: values.log }) };
  } catch (error) {
    if (error instanceof ScenarioError) throw new Error(`--scenario: ${error.message}`, { cause: error });
    throw error;
  }
}
