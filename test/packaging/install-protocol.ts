// @baton/protocol installed alone from its tarball, as a host application gets it: plain Node
// ESM (20 and 24), a browser bundle, a TypeScript project at its strictest.
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { runInNewContext } from "node:vm";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { olderNode, packAll, ROOT, run, tarballOf, userEnv } from "./packs.ts";

/** One run.created event, as a log line carries it. */
const LINE = JSON.stringify({
  v: 1,
  run: "run_01JZ8Q7W1V0000000000000000",
  seq: 1,
  at: "2026-01-02T03:04:05.678Z",
  type: "run.created",
  data: { number: 1, task: "add a greeting", agent: "fake", repo: { root: "/repo", dirty: false } },
});

/** A host program: parses the line against the catalog, reads a field of the event, folds a run. */
const HOST_JS = `
import { eventSchema, foldRun } from "@baton/protocol";
import { isFinalStatus } from "@baton/protocol/core";
const event = eventSchema.parse(JSON.parse(process.argv[2]));
const state = foldRun([event]);
console.log(JSON.stringify({ task: event.type === "run.created" ? event.data.task : null, status: state.status, final: isFinalStatus(state.status) }));
`;

const HOST_TS = `
import { eventSchema, foldRun, type BatonEvent, type EventOfType } from "@baton/protocol";
import { definedFields, type Envelope } from "@baton/protocol/core";

export function taskOf(line: string): string | undefined {
  const event: BatonEvent = eventSchema.parse(JSON.parse(line));
  if (event.type !== "run.created") return undefined;
  const created: EventOfType<"run.created"> = event;
  const model: string | undefined = created.data.model;
  return model === undefined ? created.data.task : \`\${created.data.task} (\${model})\`;
}

export const status: string = foldRun([] as Envelope[]).status;
export const fields: { a?: number } = definedFields({ a: undefined as number | undefined });
`;

let installed: Promise<string> | undefined;

/** A host project with only @baton/protocol installed, from its tarball (its own dependencies from the registry or cache). */
function hostProject(): Promise<string> {
  installed ??= (async () => {
    const tarballs = await packAll();
    const project = await testTempDir("protocol-host-");
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }));
    await run("npm", ["install", "--prefer-offline", tarballOf(tarballs, "@baton/protocol")], { cwd: project, env: userEnv(process.execPath) });
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    assert.deepEqual(Object.keys(manifest.dependencies), ["@baton/protocol"], "nothing else to add by hand");
    await writeFile(join(project, "host.mjs"), HOST_JS);
    return project;
  })();
  return installed;
}

const expected = { task: "add a greeting", status: "created", final: false };

test("@baton/protocol installed alone imports and works in plain Node 24 ESM", async () => {
  const project = await hostProject();
  const { stdout } = await run(process.execPath, ["host.mjs", LINE], { cwd: project, env: userEnv(process.execPath) });
  assert.deepEqual(JSON.parse(stdout), expected);
});

const node20 = olderNode();
test("@baton/protocol installed alone imports and works in plain Node 20 ESM", { skip: node20 === undefined ? "no Node older than 24 here" : false }, async () => {
  const project = await hostProject();
  const node = node20 as string;
  const { stdout } = await run(node, ["host.mjs", LINE], { cwd: project, env: userEnv(node) });
  assert.deepEqual(JSON.parse(stdout), expected);
});

test("@baton/protocol installed alone type-checks in a TypeScript project with strict and exactOptionalPropertyTypes, its declarations checked too", async () => {
  const project = await hostProject();
  const tsconfig = {
    compilerOptions: {
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
      // A browser host: zod's own declarations name URL.
      lib: ["es2022", "dom"],
    },
    files: ["host.ts"],
  };
  await writeFile(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
  await writeFile(join(project, "host.ts"), HOST_TS);
  await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: project, env: userEnv(process.execPath) });
});

test("@baton/protocol installed alone bundles for a browser page (vite), and the page's code runs", async () => {
  const project = await hostProject();
  await writeFile(join(project, "index.html"), `<!doctype html><script type="module" src="./page.js"></script>`);
  await writeFile(
    join(project, "page.js"),
    `import { eventSchema, foldRun } from "@baton/protocol";\nconst event = eventSchema.parse(${LINE});\nglobalThis.hostResult = JSON.stringify({ task: event.data.task, status: foldRun([event]).status });\n`,
  );
  const { build } = await import("vite");
  await build({ root: project, logLevel: "silent", configFile: false, build: { outDir: "dist", minify: false, modulePreload: { polyfill: false } } });
  const assets = join(project, "dist", "assets");
  const bundle = (await readdir(assets)).find((file) => file.endsWith(".js"));
  assert.ok(bundle, "the page has a script");
  const code = await readFile(join(assets, bundle), "utf8");
  assert.doesNotMatch(code, /from\s*["']node:/, "no Node built-in in the browser bundle");
  // The bundle runs where only the language's globals exist (no process, no require).
  const sandbox: { hostResult?: string } = {};
  runInNewContext(code, sandbox);
  assert.deepEqual(JSON.parse(sandbox.hostResult ?? "null"), { task: "add a greeting", status: "created" });
});
