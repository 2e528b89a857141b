import assert from "node:assert/strict";
import { test } from "node:test";
import { batonInvocation } from "./invocation.ts";

const LAUNCHER = "/src/baton/packages/cli/bin/baton.js";
/** A file system holding the launcher, and `baton` links where `links` says (link path to its target). */
const realPathIn = (links: Record<string, string>) => (path: string) => (path === LAUNCHER ? LAUNCHER : links[path]);

test("started by npm run in the checkout, the demo's commands start with npm run baton --; from elsewhere, with --prefix", () => {
  const npm = { npm_lifecycle_event: "demo", npm_package_json: "/src/baton/package.json", PATH: "/src/baton/node_modules/.bin:/usr/bin" };
  const realPath = realPathIn({ "/src/baton/node_modules/.bin/baton": LAUNCHER });
  assert.equal(batonInvocation({ env: { ...npm, INIT_CWD: "/src/baton" }, launcher: LAUNCHER, realPath }), "npm run baton --");
  assert.equal(batonInvocation({ env: { ...npm, INIT_CWD: "/src/baton/packages" }, launcher: LAUNCHER, realPath }), "npm --prefix /src/baton run baton --");
  assert.equal(batonInvocation({ env: { ...npm, INIT_CWD: "/src/baton", npm_package_json: "/other/package.json" }, launcher: LAUNCHER, realPath }), "baton", "another package's npm script is not this Baton's");
});

test("outside npm: baton when the first baton on the PATH is this one, else the launcher's path", () => {
  const env = { PATH: "/home/me/bin:/usr/local/bin:/usr/bin" };
  assert.equal(batonInvocation({ env, launcher: LAUNCHER, realPath: realPathIn({ "/usr/local/bin/baton": LAUNCHER }) }), "baton");
  assert.equal(batonInvocation({ env, launcher: LAUNCHER, realPath: realPathIn({ "/home/me/bin/baton": "/opt/other/baton", "/usr/local/bin/baton": LAUNCHER }) }), LAUNCHER, "another baton comes first");
  assert.equal(batonInvocation({ env, launcher: LAUNCHER, realPath: realPathIn({}) }), LAUNCHER);
  assert.equal(batonInvocation({ env, launcher: "/my dir/bin/baton.js", realPath: () => undefined }), "'/my dir/bin/baton.js'", "quoted for the shell");
});
