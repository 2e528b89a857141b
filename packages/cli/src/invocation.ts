import { realpathSync } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { shellQuote } from "./shell-quote.ts";

/** The `baton` launcher of this checkout (bin/baton.js): runs on any Node, from any directory. */
export const LAUNCHER = fileURLToPath(new URL("../bin/baton.js", import.meta.url));

/** npm scripts that start Baton (the root package.json's): a command printed for later should start it the same way. */
const NPM_SCRIPTS = new Set(["baton", "demo"]);

export type InvocationContext = {
  env: Record<string, string | undefined>;
  /** The launcher this process runs from. */
  launcher: string;
  /** The real path of a file, or undefined when there is none (tests pass their own). */
  realPath?: (path: string) => string | undefined;
};

/**
 * The words that start this Baton again from the user's own directory, for commands printed
 * to be typed later (the demo's "where to look next"): `npm run baton --` when it was started
 * by `npm run` there (`npm --prefix DIR run baton --` when npm was run elsewhere), `baton`
 * when the `baton` on the PATH is this launcher, else the launcher's absolute path.
 */
export function batonInvocation(context: InvocationContext): string {
  const { env } = context;
  const realPath = context.realPath ?? realPathOrUndefined;
  const launcher = realPath(context.launcher) ?? context.launcher;
  const script = env["npm_lifecycle_event"];
  const packageJson = env["npm_package_json"];
  if (script !== undefined && NPM_SCRIPTS.has(script) && packageJson !== undefined && launcher.startsWith(dirname(packageJson) + sep)) {
    const packageDir = dirname(packageJson);
    const from = env["INIT_CWD"];
    return from === undefined || resolve(from) === packageDir ? "npm run baton --" : `npm --prefix ${shellQuote(packageDir)} run baton --`;
  }
  // Under `npm run`, node_modules/.bin is on the PATH too; that is why npm is looked at first.
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const found = realPath(join(dir, "baton"));
    // The first `baton` on the PATH is the one a shell runs: it must be this one.
    if (found !== undefined) return found === launcher ? "baton" : shellQuote(context.launcher);
  }
  return shellQuote(context.launcher);
}

function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
