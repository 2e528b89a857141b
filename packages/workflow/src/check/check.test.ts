import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { formatDiagnostic } from "../diagnostics/diagnostic.ts";
import { agent, chain, command, defineWorkflow, edge, exit, human, start } from "../definition/builder.ts";
import { singleWorkflow } from "../definition/single.ts";
import { loadWorkflow } from "../lookup/load.ts";
import { checkWorkflow } from "./check.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");
const options = { file: "built", fileExists: () => true, baseDir: FIXTURES, homeDir: "/home/nobody" };

/** Each bad file ends with `// expect: SEVERITY RULE LINE:COL` lines: exactly what checking it must find. */
async function expectationsOf(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8");
  return [...text.matchAll(/^\/\/ expect: (.+)$/gm)].map((m) => m[1] as string).sort();
}

const files = (await readdir(FIXTURES)).filter((name) => name.endsWith(".dot")).sort();

test("the bad-file corpus has a file for every rule of the checker and the parser", async () => {
  const rules = new Set<string>();
  for (const name of files) for (const expectation of await expectationsOf(join(FIXTURES, name))) rules.add(expectation.split(" ")[1] as string);
  for (const rule of [
    "syntax", "strict-graph", "undirected-graph", "undirected-edge", "html-label", "port", "bad-value", "unknown-handler", "condition-syntax",
    "stylesheet", "edge-target", "start-node", "exit-node", "start-incoming", "exit-outgoing", "unreachable", "exit-unreachable", "dead-end",
    "missing-prompt", "prompt-file", "missing-script", "missing-duration", "foreach-over", "foreach-edges", "fan-in", "default-choice", "retry-target",
    "unsupported-handler", "unknown-attribute", "misplaced-attribute", "unknown-shape", "conditional-edges",
  ]) {
    assert.ok(rules.has(rule), `no fixture expects ${rule}`);
  }
});

for (const name of files) {
  test(`${name}: checking finds exactly the diagnostics it expects, each with a line, a column, a rule and a fix`, async () => {
    const path = join(FIXTURES, name);
    const loaded = await loadWorkflow(path, { cwd: FIXTURES, projectRoot: FIXTURES });
    const found = loaded.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.line}:${d.column}`).sort();
    assert.deepEqual(found, await expectationsOf(path));
    for (const d of loaded.diagnostics) {
      assert.equal(d.file, name);
      assert.ok(d.fix.length > 0, `${d.rule} has a fix`);
      assert.match(formatDiagnostic(d), new RegExp(`^${name.replace(".", "\\.")}:\\d+:\\d+: (error|warning) [a-z-]+: [^\\n]+ \\(fix: [^\\n]+\\)$`));
    }
  });
}

test("a prompt file is looked for beside the workflow file, not in the current directory", async () => {
  const loaded = await loadWorkflow(join(FIXTURES, "missing-prompt-file.dot"), { cwd: "/", projectRoot: "/" });
  const problems = loaded.diagnostics.filter((d) => d.rule === "prompt-file");
  assert.equal(problems.length, 1, "prompts/present.md beside the file is found; prompts/nowhere.md is not");
  assert.match(problems[0]?.message ?? "", new RegExp(`looked for ${join(FIXTURES, "prompts", "nowhere.md")}`));
});

test("the built-in single workflow checks clean", () => {
  assert.deepEqual(checkWorkflow(singleWorkflow(), options), []);
});

test("a definition built in TypeScript is checked by the same rules, its diagnostics at the top of the file", () => {
  const definition = defineWorkflow("broken", {
    nodes: [start(), agent("plan", "Plan."), command("check", "npm test"), human("gate", "Ship?", { default_choice: "later" }), exit()],
    edges: [...chain("start", "plan", "check", "gate"), edge("gate", "exit", { label: "[Y] Yes" }), edge("gate", "ghost", { label: "[N] No" })],
  });
  const found = checkWorkflow(definition, options).map((d) => `${d.rule} ${d.line}:${d.column}`);
  assert.deepEqual(found.sort(), ["default-choice 1:1", "edge-target 1:1"]);
});

test("an agent stage built without a prompt or label is refused, with one that has a label accepted", () => {
  const definition = defineWorkflow("labels", {
    nodes: [start(), { id: "a", handler: "agent", shape: "box", label: "a" }, { id: "b", handler: "agent", shape: "box", label: "Summarise the diff" }, exit()],
    edges: chain("start", "a", "b", "exit"),
  });
  assert.deepEqual(checkWorkflow(definition, options).map((d) => `${d.rule}: ${d.message}`), ['missing-prompt: agent stage "a" has no prompt and no label']);
});
