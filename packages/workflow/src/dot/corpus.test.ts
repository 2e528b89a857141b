import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { readWorkflow } from "../definition/from-dot.ts";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { loadWorkflow } from "../lookup/load.ts";
import { resolveNodeStyle } from "../stylesheet/resolve.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

async function read(name: string): Promise<WorkflowDefinition> {
  const result = readWorkflow(await readFile(join(FIXTURES, name), "utf8"), { file: name, path: join(FIXTURES, name) });
  assert.ok(result.definition, `${name} parses`);
  return result.definition;
}

const node = (definition: WorkflowDefinition, id: string) => definition.nodes.find((n) => n.id === id) ?? assert.fail(`no node ${id}`);

test("every file of the corpus reads and checks with no error", async () => {
  const names = (await readdir(FIXTURES)).filter((name) => /\.(dot|fabro)$/.test(name));
  assert.ok(names.length >= 5);
  for (const name of names) {
    const loaded = await loadWorkflow(join(FIXTURES, name), { cwd: FIXTURES, projectRoot: FIXTURES });
    assert.deepEqual(loaded.diagnostics.filter((d) => d.severity === "error"), [], name);
  }
});

test("release-train: multi-line prompts, a stylesheet, subgraph defaults and classes, chained edges", async () => {
  const definition = await read("release-train.dot");
  assert.equal(definition.name, "ReleaseTrain");
  assert.equal(definition.graph.stall_timeout_ms, 20 * 60_000);
  assert.deepEqual([definition.graph.default_max_retries, definition.graph.max_node_visits], [1, 4]);
  const draft = node(definition, "draft");
  assert.match(draft.prompt ?? "", /^Read the commits.*\nGroup them.*\n.*\{\{ context\.version \}\}\.\n\nKeep each line/s);
  assert.equal(node(definition, "polish").prompt, "Tighten the wording of the new CHANGELOG.md section.\nDo not add entries.");
  assert.deepEqual([draft.thread_id, draft.timeout_ms, draft.classes], ["notes", 15 * 60_000, ["authoring"]]);
  assert.equal(node(definition, "bump").thread_id, undefined, "the subgraph's defaults stay in it");
  assert.deepEqual([node(definition, "verify").timeout_ms, node(definition, "verify").max_retries], [30 * 60_000, 2]);
  assert.equal(node(definition, "tag").script, 'git tag -a "v$BATON_CTX_VERSION" -m release');
  const chain = definition.edges.slice(0, 4);
  assert.deepEqual(chain.map((e) => `${e.from}->${e.to}:${e.weight}`), ["start->draft:1", "draft->polish:1", "polish->bump:1", "bump->verify:1"]);
  assert.deepEqual(definition.stylesheet.map((r) => r.specificity), [0, 2, 3]);
  assert.deepEqual(resolveNodeStyle(definition, "draft"), { agent: "claude", model: "claude-sonnet-4-5", reasoning_effort: "high", from: { agent: "*", model: ".authoring", reasoning_effort: ".authoring" } });
  assert.deepEqual([resolveNodeStyle(definition, "bump").agent, resolveNodeStyle(definition, "bump").model], ["codex", "gpt-5.2"]);
  assert.equal(definition.graph.attributes.rankdir, "LR", "drawing attributes are kept");
});

test("triage (.fabro): gates with three accelerator forms, dotted keys, freeform, conditions of every operator", async () => {
  const definition = await read("triage.fabro");
  const decide = node(definition, "decide");
  assert.deepEqual([decide.handler, decide.default_choice, decide.timeout_ms], ["human", "approve", 2 * 3_600_000]);
  assert.deepEqual(definition.edges.filter((e) => e.from === "decide").map((e) => [e.label, e.freeform]), [
    ["[A] Approve", false], ["R) Reject", false], ["Q - Ask a question", false], [undefined, true],
  ]);
  const conditions = definition.edges.flatMap((e) => (e.condition === undefined ? [] : [e.condition.source]));
  assert.deepEqual(conditions, ["preferred_label=bug || context.kind=bug", "preferred_label=question && !context.urgent", "context.log contains error || context.version matches ^v2\\."]);
  assert.equal(definition.edges.find((e) => e.from === "classify" && e.condition === undefined)?.weight, -1);
  assert.match(node(definition, "read_report").prompt ?? "", /\{"preferred_next_label": "bug"\}/);
  assert.deepEqual([node(definition, "fix").goal_gate, node(definition, "fix").retry_target], [true, "reproduce"]);
});

test("fan-out-review: parallel and foreach stages, subgraph operands, default shapes that do not hide start and exit", async () => {
  const definition = await read("fan-out-review.dot");
  assert.equal(definition.name, "fan-out review");
  assert.deepEqual([node(definition, "start").handler, node(definition, "exit").handler], ["start", "exit"]);
  assert.deepEqual([node(definition, "split").handler, node(definition, "split").join_policy, node(definition, "split").max_parallel], ["parallel", "wait_all", 3]);
  assert.deepEqual([node(definition, "per_file").handler, node(definition, "per_file").over], ["foreach", "files"]);
  assert.deepEqual([node(definition, "join").handler, node(definition, "summarize").handler], ["fan_in", "prompt"]);
  assert.deepEqual(definition.edges.filter((e) => e.from === "split").map((e) => e.to), ["security", "performance", "style"]);
  assert.deepEqual(definition.edges.filter((e) => e.to === "join").map((e) => e.from), ["security", "performance", "style"]);
});

test("nightly-deps: graph attributes by key=value, @file prompts, line continuation, + concatenation, wait and retries", async () => {
  const definition = await read("nightly-deps.dot");
  assert.deepEqual(
    [definition.graph.goal, definition.graph.default_max_retries, definition.graph.retry_target, definition.graph.fallback_retry_target, definition.graph.loop_restart_signature_limit],
    ["Keep dependencies current without breaking the build", 2, "update", "report", 3],
  );
  assert.equal(node(definition, "update").prompt, "@prompts/update-deps.md");
  assert.equal(node(definition, "settle").duration_ms, 90_000);
  const test_ = node(definition, "test");
  assert.deepEqual([test_.script, test_.timeout_ms, test_.allow_partial, test_.goal_gate], ["npm ci --no-audit && npm test", 45 * 60_000, true, true]);
  assert.equal(node(definition, "report").prompt, "Write a short report of what was updated and what failed, for the team channel.");
  assert.equal(node(definition, "update").auto_status, false);
});

test("dialect-extras: attributes of the dialect that Baton does not act on are warnings, each at its key", async () => {
  const result = readWorkflow(await readFile(join(FIXTURES, "dialect-extras.fabro"), "utf8"), { file: "dialect-extras.fabro" });
  assert.deepEqual(result.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.line}:${d.column}`), [
    "warning ignored-attribute 2:76", "warning ignored-attribute 5:50", "warning ignored-attribute 5:67", "warning ignored-attribute 5:92",
    "warning ignored-attribute 6:18", "warning ignored-attribute 7:17",
  ]);
  assert.equal(result.definition?.nodes.find((n) => n.id === "plan")?.attributes.fidelity, "full", "the raw attribute is kept");
});
