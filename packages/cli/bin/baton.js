#!/usr/bin/env node
// Starts the baton CLI on Node 24 even when the `node` on PATH is older: Baton's TypeScript
// runs directly on Node 24 (type stripping, node:sqlite). The project's own Node 24 comes
// with its dependencies (the `node` package).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const entry = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "bin.ts");
const major = Number(process.versions.node.split(".")[0]);
let node = process.execPath;
if (major < 24) {
  try {
    node = join(dirname(createRequire(import.meta.url).resolve("node/package.json")), "bin", "node");
  } catch {
    process.stderr.write(`baton: needs Node.js 24 or later (this is ${process.version}); run \`npm ci\` in the Baton checkout\n`);
    process.exit(2);
  }
}
const child = spawn(node, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
// Ctrl-C reaches the child through the terminal's process group; a signal sent to this
// process alone is passed on. Either way the child decides how the run ends.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (signal !== "SIGINT") child.kill(signal);
  });
}
child.on("exit", (code, signal) => {
  if (signal) process.exit(128 + (signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : 2));
  process.exit(code ?? 1);
});
