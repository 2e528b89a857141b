import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { test } from "node:test";

/**
 * Dependencies point inward: protocol knows nothing of Baton and depends on zod only; workflow
 * (definitions and routing) sits on protocol alone, below the engine; the engine never reaches
 * up into the CLI or the test kit; no package reaches into another's
 * source by a relative path. Tests and test support may use the test kit.
 */
const ROOT = join(import.meta.dirname, "..");

type Rule = { pkg: string; allowed: (specifier: string) => boolean; description: string };

const node = (s: string) => s.startsWith("node:");
const RULES: Rule[] = [
  { pkg: "protocol", allowed: (s) => s === "zod", description: "zod only" },
  {
    pkg: "workflow",
    allowed: (s) => node(s) || ["@baton/protocol/core", "zod"].includes(s),
    description: "node builtins, @baton/protocol/core, zod",
  },
  {
    pkg: "engine",
    allowed: (s) => node(s) || ["@baton/protocol", "@baton/protocol/core", "@baton/workflow", "@baton/transcript", "@baton/transcript/fold", "zod", "ulid", "smol-toml", "shell-quote", "pg", "pg-boss", "@octokit/rest"].includes(s) || s.startsWith("@agentclientprotocol/sdk"),
    description: "node builtins, @baton/protocol, @baton/workflow, @baton/transcript (its fold alone at a run's start), zod, ulid, smol-toml, shell-quote, pg (the PostgreSQL store, loaded only for a postgres:// store), pg-boss (dispatch of runs to workers, loaded by @baton/engine/dispatch only), @octokit/rest (pull requests), the ACP SDK",
  },
  { pkg: "transcript", allowed: (s) => s === "@baton/protocol/core", description: "@baton/protocol/core only" },
  { pkg: "client", allowed: (s) => s === "@baton/protocol/core", description: "@baton/protocol/core only (it runs in browsers: no node builtins, no zod)" },
  {
    pkg: "otel",
    allowed: (s) => node(s) || ["@baton/engine/store", "@baton/protocol/core"].includes(s) || s.startsWith("@opentelemetry/"),
    description: "node builtins, @baton/engine/store, @baton/protocol/core, the OpenTelemetry SDK (and no other package depends on it)",
  },
  {
    pkg: "server",
    allowed: (s) =>
      node(s) ||
      ["@baton/engine", "@baton/engine/store", "@baton/engine/errors", "@baton/engine/input", "@baton/engine/dispatch", "@baton/protocol", "@baton/protocol/core", "hono", "@hono/node-server", "@hono/zod-openapi"].includes(s) ||
      s.startsWith("hono/") ||
      s.startsWith("@hono/node-server/"),
    description: "node builtins, @baton/engine(/store, /errors, /input, /dispatch), @baton/protocol(/core), hono, @hono/node-server, @hono/zod-openapi (the routes' schemas are the API's document)",
  },
  {
    pkg: "web",
    allowed: (s) => ["@baton/protocol/core", "preact", "preact/hooks", "marked", "dompurify", "uplot"].includes(s) || s.startsWith("uplot/"),
    description: "@baton/protocol/core (no zod in the bundle), preact, marked and dompurify (agent Markdown), uplot (charts)",
  },
  {
    pkg: "testkit",
    allowed: (s) => node(s) || s === "zod" || s.startsWith("@agentclientprotocol/sdk"),
    description: "node builtins, zod, the ACP SDK",
  },
];

/** Tests, test support, and the generators of committed files (run at development time). */
const isExempt = (path: string) =>
  /\.test\.ts$/.test(path) || /\/(testing|test-fixtures)\//.test(path) || path.includes("acp-test-client") || /\/write-[a-z-]+\.ts$/.test(path);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => join(e.parentPath, e.name));
}

function importsOf(text: string): string[] {
  const found = text.matchAll(/(?:^|\n)\s*(?:import|export)[^"'\n;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g);
  return [...found].map((m) => m[1] ?? m[2] ?? "");
}

for (const rule of RULES) {
  test(`${rule.pkg} depends on ${rule.description}`, async () => {
    const problems: string[] = [];
    const srcDir = join(ROOT, "packages", rule.pkg, "src");
    for (const file of await sourceFiles(srcDir)) {
      if (isExempt(file)) continue;
      for (const specifier of importsOf(await readFile(file, "utf8"))) {
        if (specifier.startsWith(".")) continue;
        if (!rule.allowed(specifier)) problems.push(`${relative(ROOT, file)} imports ${specifier}`);
      }
    }
    assert.deepEqual(problems, []);
  });
}

test("no package reaches into another package's files by a relative path", async () => {
  const problems: string[] = [];
  for (const pkg of await readdir(join(ROOT, "packages"))) {
    for (const file of await sourceFiles(join(ROOT, "packages", pkg, "src"))) {
      for (const specifier of importsOf(await readFile(file, "utf8"))) {
        if (specifier.startsWith(".") && relative(join(ROOT, "packages", pkg), join(file, "..", specifier)).startsWith("..")) {
          problems.push(`${relative(ROOT, file)} imports ${specifier}`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("the store loads no schemas: it uses the protocol's zod-free core (types aside)", async () => {
  // Following a long log must stay small; zod and the catalog's schemas cost ~25 MB.
  const problems: string[] = [];
  for (const file of await sourceFiles(join(ROOT, "packages", "engine", "src", "store"))) {
    if (isExempt(file)) continue;
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(/^import (type )?[^;]*?from "([^"]+)";/gms)) {
      const [, typeOnly, specifier] = match;
      if (specifier === "zod" || (specifier === "@baton/protocol" && typeOnly === undefined)) problems.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(problems, []);
});

test("the import scanner sees static, re-export and dynamic imports", () => {
  const text = 'import { a } from "x";\nexport * from "./y.ts";\nconst m = await import("z");\nimport type { T } from "w";';
  assert.deepEqual(importsOf(text).sort(), ["./y.ts", "w", "x", "z"]);
});

test("only packages/otel imports the OpenTelemetry SDK", async () => {
  const problems: string[] = [];
  for (const pkg of await readdir(join(ROOT, "packages"))) {
    if (pkg === "otel") continue;
    for (const file of await sourceFiles(join(ROOT, "packages", pkg, "src"))) {
      for (const specifier of importsOf(await readFile(file, "utf8"))) if (specifier.startsWith("@opentelemetry/")) problems.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(problems, []);
});
