import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { testTempDir } from "@baton/protocol/testing";

// In a checkout, bin/baton.js runs the bundle `npm ci` made of the sources while every file it
// was made from is as it was, and the sources otherwise (scripts/build-cli-bundle.mjs).

const LAUNCHER = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));
const CHECKOUT = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * A checkout in miniature: the real launcher, a "bundle" and "sources" that each print their
 * name, and the bundle's list of the files it was made from (a source file and a manifest).
 */
async function miniatureCheckout(): Promise<{ source: string; manifest: string; list: string; build: () => void; run: () => string }> {
  const root = await testTempDir("launcher-bundle-");
  const cli = join(root, "packages", "cli");
  for (const dir of ["bin", "src", "bundle"]) mkdirSync(join(cli, dir), { recursive: true });
  copyFileSync(LAUNCHER, join(cli, "bin", "baton.js"));
  const manifest = join(cli, "package.json");
  writeFileSync(manifest, `{ "type": "module" }\n`);
  const source = join(cli, "src", "bin.ts");
  writeFileSync(source, `process.stdout.write("sources\\n");\n`);
  writeFileSync(join(cli, "bundle", "bin.js"), `process.stdout.write("bundle\\n");\n`);
  const list = join(cli, "bundle", "sources.json");
  const entry = (file: string, path: string) => [file, statSync(path).size, statSync(path).mtimeMs];
  // What a build writes: the files as they are now.
  const build = () => writeFileSync(list, `${JSON.stringify({ files: [entry("packages/cli/src/bin.ts", source), entry("packages/cli/package.json", manifest)] })}\n`);
  build();
  const run = () => execFileSync(process.execPath, [join(cli, "bin", "baton.js")], { encoding: "utf8" }).trim();
  return { source, manifest, list, build, run };
}

test("the launcher runs the bundle while the files it was made from are unchanged, the sources once one is not", async () => {
  const { source, manifest, list, build, run } = await miniatureCheckout();
  assert.equal(run(), "bundle");

  // Edited in place: another size.
  const original = readFileSync(source, "utf8");
  writeFileSync(source, `${original}// an edit\n`);
  assert.equal(run(), "sources");
  build();
  assert.equal(run(), "bundle", "built again, the bundle stands for the sources again");

  // The same size, another time (a checkout of another branch, a save that changed nothing visible).
  const { atime, mtime } = statSync(source);
  utimesSync(source, atime, new Date(mtime.getTime() + 5_000));
  assert.equal(run(), "sources");
  build();

  // A file it was made from is gone.
  rmSync(manifest);
  assert.equal(run(), "sources");
  writeFileSync(manifest, `{ "type": "module" }\n`);
  build();
  assert.equal(run(), "bundle");

  for (const broken of ["", "{", `{"files": []}`, `{"files": "nope"}`]) {
    writeFileSync(list, broken);
    assert.equal(run(), "sources", `a list reading ${JSON.stringify(broken)} is no list`);
  }
  rmSync(list);
  assert.equal(run(), "sources", "without its list, the bundle is not run");
});

/** Prints the URL of every module Node loads, one a line (for `--import`). */
const LOG_LOADED = `data:text/javascript,${encodeURIComponent('import m from "node:module"; m.registerHooks({ load(url, context, next) { process.stdout.write(url + "\\n"); return next(url, context); } });')}`;

test("in this checkout, after npm run build:cli (npm ci and npm test run it), the launcher runs the bundle", () => {
  const list = JSON.parse(readFileSync(join(CHECKOUT, "packages", "cli", "bundle", "sources.json"), "utf8")) as { files: [string, number, number][] };
  const changed = list.files.filter(([file, size, mtimeMs]) => {
    const stats = statSync(join(CHECKOUT, file), { throwIfNoEntry: false });
    return stats === undefined || stats.size !== size || stats.mtimeMs !== mtimeMs;
  });
  assert.deepEqual(changed.map(([file]) => file), [], "the bundle is older than these sources: run npm run build:cli");
  assert.ok(list.files.some(([file]) => file === "packages/cli/src/bin.ts") && list.files.some(([file]) => file.startsWith("packages/engine/src/")));
  // Which modules a command loads: the bundle's, and none of the CLI's or the engine's sources.
  const loaded = execFileSync(process.execPath, ["--import", LOG_LOADED, LAUNCHER, "--version"], { encoding: "utf8" });
  const urls = loaded.split("\n").filter((line) => line.startsWith("file:"));
  assert.ok(urls.some((url) => url.includes("/packages/cli/bundle/")), "the bundle was loaded");
  assert.deepEqual(urls.filter((url) => /\/packages\/(cli|engine)\/src\//.test(url)), [], "no source module of the CLI or the engine was loaded");
});
