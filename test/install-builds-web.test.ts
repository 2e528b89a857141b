import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(import.meta.dirname, "..");

// `npm test` builds the web UI itself, so no other test notices when an install stops doing it;
// a fresh clone would then serve the page that asks for a manual build.
test("npm ci builds the web UI and the CLI's bundle: the root package's prepare script runs build:web, which builds @baton/web, then build:cli", async () => {
  const { scripts } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  assert.match(scripts["prepare"] ?? "", /^npm run -s build:web && npm run -s build:cli$/, "npm ci runs the root's prepare script");
  assert.match(scripts["build:web"] ?? "", /^npm run build -w @baton\/web\b/);
  assert.equal(scripts["build:cli"], "node scripts/build-cli-bundle.mjs");
  const web = JSON.parse(await readFile(join(ROOT, "packages", "web", "package.json"), "utf8")) as { scripts: Record<string, string> };
  assert.equal(web.scripts["build"], "vite build");
});
