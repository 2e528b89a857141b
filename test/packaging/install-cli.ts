// `npm install -g` of the CLI outside the checkout, as a user with an older system Node does it.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { startPackRegistry } from "./pack-registry.ts";
import { olderNode, packAll, run, tarballOf, userEnv } from "./packs.ts";

const OLDER_NODE = olderNode();
const skip = OLDER_NODE === undefined ? "no Node older than 24 on this machine to be the system Node" : false;

test("npm install -g of @baton/cli's tarball (its siblings from theirs) gives a baton that runs the demo on a system Node 20, on the Node 24 it brings", { skip }, async () => {
  const systemNode = OLDER_NODE as string;
  const tarballs = await packAll();
  const registry = await startPackRegistry([...tarballs.values()]);
  try {
    const prefix = await testTempDir("global-");
    const user = await testTempDir("user-");
    const tmp = await testTempDir("user-tmp-");
    const env = userEnv(systemNode, { TMPDIR: tmp });
    await run("npm", ["install", "--global", "--prefix", prefix, "--prefer-offline", `--@baton:registry=${registry.url}`, tarballOf(tarballs, "@baton/cli")], { cwd: user, env });

    const installed = join(prefix, "lib", "node_modules", "@baton", "cli");
    assert.ok(!existsSync(join(installed, "src")), "the installed CLI runs its build, not sources");
    const shell = { ...env, PATH: [join(prefix, "bin"), env["PATH"]].join(delimiter) };
    assert.match((await run("node", ["--version"], { cwd: user, env: shell })).stdout, /^v(1|2[0-3])\./, "the system Node is older than 24");
    const version = await run("baton", ["--version"], { cwd: user, env: shell });
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);

    const demo = await run("baton", ["demo"], { cwd: user, env: shell });
    assert.match(demo.stdout, /✔ succeeded/);
    const runs = /^\s+(\S+ -C \S+) runs\b/m.exec(demo.stdout);
    assert.ok(runs, `the demo prints its next commands:\n${demo.stdout}`);
    const [command, ...args] = (runs[1] as string).split(" ");
    const shown = await run(command as string, [...args, "show", "1"], { cwd: user, env: shell });
    assert.match(shown.stdout, /succeeded/);

    // Where npm found no Node package for the platform (macOS, Windows), baton says what it needs.
    const bundled = join(installed, "node_modules", `node-${process.platform}-${process.arch}`);
    assert.ok(existsSync(bundled), "npm installed the Node package of this platform");
    await rename(bundled, `${bundled}.gone`);
    await assert.rejects(run("baton", ["--version"], { cwd: user, env: shell }), /ended with 2[\s\S]*baton: needs Node\.js 24 or later \(this is v\d+[^)]*\); install Node\.js 24/);
  } finally {
    await registry.close();
  }
});
