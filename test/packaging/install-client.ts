// @baton/client installed from its tarball into a host project: it bundles for a browser page
// (no Node built-in reaches the bundle) and type-checks in a TypeScript project at its strictest.
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { startPackRegistry } from "./pack-registry.ts";
import { packAll, ROOT, run, userEnv } from "./packs.ts";

const HOST_TS = `
import { BatonApiError, BatonClient, type FollowItem } from "@baton/client";

export async function lastTask(url: string): Promise<string | undefined> {
  const baton = BatonClient.fromUrl(url);
  let task: string | undefined;
  try {
    const { runs } = await baton.listRuns({ status: "running", limit: 5 });
    const first = runs[0];
    if (first === undefined) return undefined;
    for await (const item of baton.followRun(first.id, { after: 0 })) {
      const seen: FollowItem = item;
      if (seen.type === "event" && seen.event.type === "run.created") task = String(seen.event.data["task"]);
      if (seen.type === "resync") console.log(\`resynced after \${seen.after}\`);
    }
  } catch (error) {
    if (error instanceof BatonApiError) return \`\${error.status} \${error.code}\`;
    throw error;
  }
  return task;
}
`;

test("@baton/client installed from its tarball bundles for a browser page (vite) and type-checks with strict and exactOptionalPropertyTypes", async () => {
  const tarballs = await packAll();
  const registry = await startPackRegistry([...tarballs.values()]);
  try {
    const project = await testTempDir("client-host-");
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }));
    await run("npm", ["install", "--prefer-offline", `--@baton:registry=${registry.url}`, "@baton/client"], { cwd: project, env: userEnv(process.execPath) });

    await writeFile(join(project, "index.html"), `<!doctype html><script type="module" src="./page.js"></script>`);
    await writeFile(join(project, "page.js"), `import { BatonClient } from "@baton/client";\nglobalThis.hostResult = typeof BatonClient.fromUrl("http://127.0.0.1:7317/?token=t0123456789abcdef").followFeed;\n`);
    const { build } = await import("vite");
    await build({ root: project, logLevel: "silent", configFile: false, build: { outDir: "dist", minify: false, modulePreload: { polyfill: false } } });
    const assets = join(project, "dist", "assets");
    const bundle = (await readdir(assets)).find((file) => file.endsWith(".js"));
    assert.ok(bundle, "the page has a script");
    assert.doesNotMatch(await readFile(join(assets, bundle), "utf8"), /from\s*["']node:|require\(/, "no Node built-in in the browser bundle");

    const tsconfig = {
      compilerOptions: { target: "es2022", module: "nodenext", moduleResolution: "nodenext", strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false, noEmit: true, types: [], lib: ["es2022", "dom", "dom.asynciterable"] },
      files: ["host.ts"],
    };
    await writeFile(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    await writeFile(join(project, "host.ts"), HOST_TS);
    await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: project, env: userEnv(process.execPath) });
  } finally {
    await registry.close();
  }
});
