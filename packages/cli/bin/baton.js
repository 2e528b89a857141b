#!/usr/bin/env node
// The `baton` command. Baton's TypeScript runs directly on Node 24 (type stripping,
// node:sqlite); this plain-JavaScript launcher makes that work from any Node:
// - on Node 24 or later it turns on Node's compile cache, so later starts skip stripping
//   types and compiling (faster, and tens of MB less memory), then runs the CLI in-process;
// - on an older Node it starts itself again on the project's own Node 24 (the `node`
//   package among Baton's dependencies).
import { spawn } from "node:child_process";
import module, { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const major = Number(process.versions.node.split(".")[0]);
if (major >= 24) {
  module.enableCompileCache?.();
  await import("../src/bin.ts");
} else {
  let node;
  try {
    node = join(dirname(createRequire(import.meta.url).resolve("node/package.json")), "bin", "node");
  } catch {
    process.stderr.write(`baton: needs Node.js 24 or later (this is ${process.version}); run \`npm ci\` in the Baton checkout\n`);
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
