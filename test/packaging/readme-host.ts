// The README's host example, run as written: @baton/client and @baton/protocol installed from
// their tarballs into a project outside the repository, against a real `baton serve`.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { type Baton, freePort, makeProject, startServe } from "@baton/testkit/baton-cli";
import { startPackRegistry } from "./pack-registry.ts";
import { packAll, ROOT, run, userEnv } from "./packs.ts";

const MARKER = "<!-- host-example: test/packaging/readme-host.ts runs this program -->";

/** The program in the code block right after the marker. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, "the README marks its host example");
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, "a js code block follows the marker");
  return block[1] as string;
}

test("the README's host example runs as written: it starts a run through baton serve, follows it and reads typed event fields", async () => {
  const program = await readmeExample();
  const tarballs = await packAll();
  const registry = await startPackRegistry([...tarballs.values()]);
  const repo = await makeProject("readme-host-repo-");
  let server: Baton | undefined;
  try {
    const host = await testTempDir("readme-host-");
    await writeFile(join(host, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }));
    const env = userEnv(process.execPath);
    // As the README says, with the @baton scope served from the fresh tarballs.
    await run("npm", ["install", "--prefer-offline", `--@baton:registry=${registry.url}`, "@baton/client", "@baton/protocol"], { cwd: host, env });
    await writeFile(join(host, "host.mjs"), program);
    const started = await startServe(repo, await freePort(), "readme-host-token-0123456789");
    server = started.server;
    const url = started.url;
    const { stdout } = await run(process.execPath, ["host.mjs", url], { cwd: host, env });
    assert.equal(stdout, "run 1: say hello\ncompleted: succeeded\n");
  } finally {
    await server?.kill();
    await registry.close();
  }
});
