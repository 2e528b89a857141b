#!/usr/bin/env node
// The `baton` command. Baton's TypeScript runs directly on Node 24 (type stripping,
// node:sqlite); this plain-JavaScript launcher makes that work from any Node:
// - on Node 24 or later it turns on Node's compile cache, so later starts skip stripping
//   types and compiling (faster, and tens of MB less memory), then runs the CLI in-process;
// - on an older Node it starts itself again on the project's own Node 24 (the `node`
//   package among Baton's dependencies).
import { spawn } from "node:child_process";
import module, { createRequire } from "node:module";
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
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  // Ctrl-C reaches the child through the terminal's process group; a signal sent to this
  // process alone is passed on. Either way the child decides how the run ends.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (signal !== "SIGINT") child.kill(signal);
    });
  }
  child.on("exit", (code, signal) => {
    if (signal) process.exit(128 + ({ SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1));
    process.exit(code ?? 1);
  });
}
