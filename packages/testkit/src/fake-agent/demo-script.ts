import { fileURLToPath } from "node:url";
import demoScriptJson from "./demo-script.json" with { type: "json" };
import { validateScript } from "./script.ts";
import type { Script } from "./script.ts";

/**
 * The built-in demo for `npm run demo`: a small coding task in a sample repo (think, plan,
 * write greet.js and a test, run them, report usage, sum up). Its commands need only `sh` and
 * `node`. Pass the path to the agent; use the data to show or assert what the demo does.
 */
export const demoScriptPath = fileURLToPath(new URL("./demo-script.json", import.meta.url));

/** The demo script, validated at import so a broken demo fails loudly and early. */
export const demoScript: Script = validateScript(demoScriptJson, demoScriptPath);
