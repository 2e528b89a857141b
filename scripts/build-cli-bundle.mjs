// Bundles the `baton` command's own modules for a checkout: packages/cli/src/bin.ts and every
// workspace module it reaches, from their TypeScript sources, into packages/cli/bundle/ (one
// file per lazily loaded command, shared chunks between them). Other packages (zod, the ACP
// SDK, commander…) stay imports of node_modules. Run by `npm ci` (the root's prepare script)
// and by `npm run build:cli`. The launcher (packages/cli/bin/baton.js) runs the bundle only
// while every file it was built from is as it was; see docs/adr/0045-cli-bundle-in-a-checkout.md.
//   node scripts/build-cli-bundle.mjs
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const packages = path.join(root, "packages");
const outDir = path.join(packages, "cli", "bundle");
const started = performance.now();

/** A workspace module: bundled. Anything else that is not relative (a package, `node:…`) is left to Node. */
const bundled = (id) => id.startsWith(".") || path.isAbsolute(id) || id.startsWith("@baton/");

/**
 * `import.meta.url` as the module's own file, wherever the bundle puts its code: modules find
 * their neighbours from it (the web UI's build, the fake agent's entry, the CLI's launcher).
 * Written relative to the bundle's folder, so a checkout that moves keeps working.
 */
const moduleUrl = {
  name: "baton-module-url",
  transform(code, id) {
    if (!id.startsWith(packages + path.sep) || !code.includes("import.meta.url")) return null;
    const own = path.relative(outDir, id).split(path.sep).join("/");
    return code.replaceAll("import.meta.url", `new URL(${JSON.stringify(own)}, import.meta.url).href`);
  },
};

// Made aside, then moved in: a `baton` already running from the bundle (a server, a long run)
// loads its commands' chunks later, by name. Chunks are named by their content and never
// overwritten by other content, so the ones it needs stay; the entry and the list of sources
// are moved last, so that a command starting meanwhile finds either build whole.
const buildDir = path.join(packages, "cli", `bundle.build-${process.pid}`);
rmSync(buildDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: path.join(packages, "cli", "src", "bin.ts"),
  platform: "node",
  logLevel: "warn",
  external: (id) => !bundled(id),
  resolve: { conditionNames: ["@baton/source", "node", "import", "default"] },
  plugins: [moduleUrl],
});
const { output } = await bundle.write({ dir: buildDir, format: "esm", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" });
await bundle.close();

// What the bundle was made from, with each file's size and time: the launcher compares them
// before it runs the bundle. The packages' manifests are in it too (their exports decide resolution).
const sources = new Set();
for (const chunk of output) if (chunk.type === "chunk") for (const id of chunk.moduleIds) if (id.startsWith(packages + path.sep)) sources.add(id);
for (const name of readdirSync(packages)) sources.add(path.join(packages, name, "package.json"));
const files = [...sources].sort().map((file) => {
  const stats = statSync(file);
  return [path.relative(root, file).split(path.sep).join("/"), stats.size, stats.mtimeMs];
});
writeFileSync(path.join(buildDir, "sources.json"), `${JSON.stringify({ files })}\n`);

const entries = new Set(output.filter((file) => file.type === "chunk" && file.isEntry).map((file) => file.fileName));
const built = readdirSync(buildDir);
const last = (name) => (name === "sources.json" ? 2 : entries.has(name) ? 1 : 0);
mkdirSync(outDir, { recursive: true });
for (const name of built.sort((a, b) => last(a) - last(b))) renameSync(path.join(buildDir, name), path.join(outDir, name));
rmSync(buildDir, { recursive: true, force: true });
// Chunks of earlier builds go once no process can still be running from them: a week on.
const kept = new Set(built);
for (const name of readdirSync(outDir)) {
  const file = path.join(outDir, name);
  if (!kept.has(name) && Date.now() - statSync(file).mtimeMs > 7 * 24 * 3600_000) rmSync(file, { force: true });
}
console.log(`baton: bundled ${files.length} files into ${path.relative(root, outDir)}/ in ${Math.round(performance.now() - started)} ms`);
