import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the fake agent's executable script. */
export const fakeAgentBinPath = fileURLToPath(new URL("./bin.ts", import.meta.url));

/**
 * How to start the fake agent on a script, in the shape Baton's agent launcher takes. It runs
 * under the current Node (24, which strips the TypeScript types itself).
 *
 * @example spawn(...Object.values(fakeAgentCommand("demo.json")))
 */
export function fakeAgentCommand(scriptPath: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [fakeAgentBinPath, "--script", resolve(scriptPath)] };
}
