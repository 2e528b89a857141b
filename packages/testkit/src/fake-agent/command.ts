import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the fake agent's executable script (its source in a checkout, its build when installed). */
export const fakeAgentBinPath = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./bin.ts" : "./bin.js", import.meta.url));

/**
 * How to start the fake agent on a script, in the shape Baton's agent launcher takes. It runs
 * under the current Node (24, which strips the TypeScript types itself).
 *
 * @example spawn(...Object.values(fakeAgentCommand("demo.json")))
 */
export function fakeAgentCommand(scriptPath: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [fakeAgentBinPath, "--script", resolve(scriptPath)] };
}

/**
 * The fake agent as an agent registry entry (the engine's entry schema, checked by a test
 * there): the CLI adds it to the built-ins. It plays the file given with `--script`, reports
 * the model "fake-model" unless one is chosen, and takes `--model` through its `model` session
 * config option. The test kit cannot import the engine, hence plain data here.
 */
export const fakeAgentEntry = {
  description: "Baton's scripted fake agent: plays --script FILE, needs no model or keys",
  command: process.execPath,
  args: [fakeAgentBinPath],
  script_arg: "--script",
  version_args: [fakeAgentBinPath, "--version"],
  model: { via: "config_option" as const, id: "model" },
  // A prompt that arrives while a turn plays is answered at once; the turn plays on.
  notices: true,
  // `usage` steps report cost in USD, and each one's tokens as one model call's.
  reports_cost: true,
  token_reports: "call" as const,
  // What a script says when it plays an agent that gave up on a refused model request.
  provider_error_prefixes: ["API Error:"],
};
