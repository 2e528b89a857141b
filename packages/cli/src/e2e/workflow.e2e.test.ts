import assert from "node:assert/strict";
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { testTempDir } from "@baton/protocol/testing";
import { git, linesOf, makeRepo, runBaton } from "./cli-harness.ts";

const DOCS = fileURLToPath(new URL("../../../../docs/workflows/", import.meta.url));
const BAD = fileURLToPath(new URL("../../../workflow/src/check/fixtures/", import.meta.url));
/** Several `baton` processes at once, not all: the machine has two cores. */
const PARALLEL_COMMANDS = 4;

/** A repository with the docs' examples as .baton/workflows/review.dot and plan.fabro. */
async function repoWithWorkflows(): Promise<string> {
  const repo = await makeRepo("cli-workflow-");
  await mkdir(join(repo, ".baton", "workflows"));
  await copyFile(join(DOCS, "parallel-review.dot"), join(repo, ".baton", "workflows", "review.dot"));
  await copyFile(join(DOCS, "plan-approve-implement.dot"), join(repo, ".baton", "workflows", "plan.fabro"));
  return repo;
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return results;
}

test("baton workflow check: a good file, by path or by name (.dot and .fabro), exits 0 with a summary", async () => {
  const repo = await repoWithWorkflows();
  const byPath = await runBaton(repo, ["workflow", "check", join(DOCS, "plan-approve-implement.dot")]);
  assert.equal(byPath.code, 0, byPath.stderr);
  assert.match(byPath.stdout, /plan-approve-implement\.dot: ok, 7 stages, 8 edges\n$/);
  const byName = await runBaton(join(repo, ".baton"), ["workflow", "check", "review"]);
  assert.equal(byName.code, 0, byName.stderr);
  assert.equal(byName.stdout, "workflows/review.dot: ok, 8 stages, 9 edges\n", "found from a subfolder; named relative to the cwd");
  const fabro = await runBaton(repo, ["workflow", "check", "plan", "--json"]);
  assert.equal(fabro.code, 0, fabro.stderr);
  assert.deepEqual(JSON.parse(fabro.stdout), { workflow: ".baton/workflows/plan.fabro", ok: true, errors: 0, warnings: 0, diagnostics: [] });
  const single = await runBaton(repo, ["workflow", "check", "single"]);
  assert.deepEqual([single.code, single.stdout], [0, "single: ok, 3 stages, 2 edges\n"]);
});

test("baton workflow check: each bad file exits 2 and prints each of its errors as file:line:col: error rule: message (fix: …)", async () => {
  const files = (await readdir(BAD)).filter((name) => name.endsWith(".dot"));
  const results = await inBatches(files, PARALLEL_COMMANDS, async (name) => {
    const expected = [...(await readFile(join(BAD, name), "utf8")).matchAll(/^\/\/ expect: (error|warning) ([a-z-]+) (\d+):(\d+)$/gm)];
    return { name, expected, result: await runBaton(BAD, ["workflow", "check", name]) };
  });
  let bad = 0;
  for (const { name, expected, result } of results) {
    const errors = expected.filter((m) => m[1] === "error");
    const lines = linesOf(result.stdout);
    for (const [, severity, rule, line, column] of expected) {
      assert.ok(
        lines.some((printed) => printed.startsWith(`${name}:${line}:${column}: ${severity} ${rule}: `) && / \(fix: .+\)$/.test(printed)),
        `${name}: no line for ${severity} ${rule} at ${line}:${column} in:\n${result.stdout}`,
      );
    }
    assert.equal(result.code, errors.length > 0 ? 2 : 0, `${name}: exit code; stderr: ${result.stderr}`);
    assert.equal(result.stderr, "", name);
    if (errors.length > 0) {
      bad++;
      assert.match(lines.at(-1) ?? "", new RegExp(`^${name.replace(".", "\\.")}: ${errors.length} errors?, \\d+ warnings?$`));
    }
  }
  assert.ok(bad >= 25, `the corpus has a bad file per rule (${bad})`);
});

test("baton workflow check --json: every diagnostic with file, line, column, severity, rule, message and fix", async () => {
  const result = await runBaton(BAD, ["workflow", "check", "bad-retry-target.dot", "--json"]);
  assert.equal(result.code, 2);
  const report = JSON.parse(result.stdout) as { ok: boolean; errors: number; diagnostics: Array<Record<string, unknown>> };
  assert.deepEqual([report.ok, report.errors], [false, 2]);
  assert.deepEqual(Object.keys(report.diagnostics[0] ?? {}).sort(), ["column", "file", "fix", "line", "message", "rule", "severity"]);
});

test("outside a git repository a workflow is still checked by path, and names are looked for under the cwd", async () => {
  const dir = await testTempDir("cli-workflow-nogit-");
  await copyFile(join(DOCS, "parallel-review.dot"), join(dir, "review.dot"));
  const byPath = await runBaton(dir, ["workflow", "check", "review.dot"]);
  assert.deepEqual([byPath.code, byPath.stdout], [0, "review.dot: ok, 8 stages, 9 edges\n"], byPath.stderr);
  const byName = await runBaton(dir, ["workflow", "check", "review"]);
  assert.equal(byName.code, 2);
  assert.match(byName.stderr, new RegExp(`looked for \\.baton/workflows/review\\.dot and \\.baton/workflows/review\\.fabro in ${dir}`));
});

test("a workflow that cannot be found: one line naming where Baton looked, exit 2", async () => {
  const repo = await repoWithWorkflows();
  const result = await runBaton(repo, ["workflow", "check", "nightly"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^baton: no workflow named "nightly": looked for \.baton\/workflows\/nightly\.dot and \.baton\/workflows\/nightly\.fabro in .+, and among the built-in workflows \(single, pipeline\): create \.baton\/workflows\/nightly\.dot[^\n]*\n$/);
  const missing = await runBaton(repo, ["workflow", "show", "flows/none.dot"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^baton: no workflow file flows\/none\.dot \(looked at .+flows\/none\.dot\): check the path[^\n]*\n$/);
});

test("baton workflow show prints the stages with agent and model after the stylesheet, and the edges with labels and conditions", async () => {
  const repo = await repoWithWorkflows();
  const result = await runBaton(repo, ["workflow", "show", "plan"]);
  assert.equal(result.code, 0, result.stderr);
  const lines = linesOf(result.stdout);
  assert.equal(lines[0], "workflow PlanApproveImplement (.baton/workflows/plan.fabro)");
  assert.ok(lines.some((line) => /^ {2}implement +agent +Implement +claude +sonnet$/.test(line)), result.stdout);
  assert.ok(lines.some((line) => /^ {2}plan +agent +Plan +claude +-$/.test(line)), result.stdout);
  assert.ok(lines.some((line) => /^ {2}check +command +Check +- +-$/.test(line)), result.stdout);
  assert.ok(lines.some((line) => /^ {2}approve -> implement +label "\[A\] Approve"$/.test(line)), result.stdout);
  assert.ok(lines.some((line) => /^ {2}check -> exit +label "pass", if outcome=succeeded$/.test(line)), result.stdout);
  const json = JSON.parse((await runBaton(repo, ["workflow", "show", "plan", "--json"])).stdout) as { definition: { nodes: unknown[] }; styles: Record<string, { model?: string }> };
  assert.equal(json.definition.nodes.length, 7);
  assert.equal(json.styles.fix?.model, "sonnet");
});

test("baton workflow show and graph refuse a file with errors: its first error in one line, exit 2", async () => {
  for (const command of ["show", "graph"]) {
    const result = await runBaton(BAD, ["workflow", command, "dead-end.dot"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^baton: dead-end\.dot:5:3: error dead-end: [^\n]+: run `baton workflow check dead-end\.dot` to see the error\n$/);
  }
});

test("baton workflow graph --svg draws the workflow with Graphviz: an SVG naming every stage; --out writes it to a file", async () => {
  const repo = await repoWithWorkflows();
  const svg = await runBaton(repo, ["workflow", "graph", "review", "--svg"]);
  assert.equal(svg.code, 0, svg.stderr);
  assert.match(svg.stdout, /<svg [^>]*>/);
  for (const id of ["start", "review", "correctness", "security", "tests", "gather", "summarize", "exit"]) assert.match(svg.stdout, new RegExp(`<title>${id}</title>`), id);
  assert.match(svg.stdout, />Summarise</);

  const dot = await runBaton(repo, ["workflow", "graph", "review"]);
  assert.equal(dot.code, 0, dot.stderr);
  assert.match(dot.stdout, /^digraph "ParallelReview" \{\n/);
  assert.match(dot.stdout, /"review" -> "correctness";/);

  const out = join(await testTempDir("cli-workflow-svg-"), "plan.svg");
  const written = await runBaton(repo, ["workflow", "graph", "plan", "--svg", "--out", out]);
  assert.deepEqual([written.code, written.stdout], [0, ""]);
  const file = await readFile(out, "utf8");
  assert.match(file, /<title>approve<\/title>/);
  assert.match(file, /\[A\] Approve/);
});

test("baton init leaves .baton/workflows/ to git: workflows are shared like the settings", async () => {
  const repo = await repoWithWorkflows();
  const status = await git(repo, "status", "--porcelain", "--untracked-files=all");
  assert.deepEqual(status.trim().split("\n").sort(), ["?? .baton/.gitignore", "?? .baton/config.toml", "?? .baton/workflows/plan.fabro", "?? .baton/workflows/review.dot"]);
});
