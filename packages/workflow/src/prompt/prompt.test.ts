import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, defineWorkflow, exit, start } from "../definition/builder.ts";
import { expandPrompt } from "./expand.ts";
import { promptFileReference, resolvePromptFile, stagePromptTemplate } from "./files.ts";

test("{{ goal }} and {{ context.KEY }} expand; JSON for other values, nothing for a missing one; other braces stay", () => {
  const context = { ticket: 42, files: ["a.ts"], "command.output": "ok", none: null };
  const text = "Goal: {{goal}} / {{ context.ticket }} / {{ context.files }} / {{context.command.output}} / [{{ context.none }}{{ context.absent }}] / {{ inputs.model }}";
  assert.equal(expandPrompt(text, { goal: "add login", context }), 'Goal: add login / 42 / ["a.ts"] / ok / [] / {{ inputs.model }}');
  assert.equal(expandPrompt("{{ goal }}", { context: {} }), "");
});

test("a prompt is a file reference when it is @ and a path, nothing else", () => {
  assert.equal(promptFileReference("@prompts/plan.md"), "prompts/plan.md");
  assert.equal(promptFileReference("  @../shared/review.md\n"), "../shared/review.md");
  assert.equal(promptFileReference("@ mention someone"), undefined);
  assert.equal(promptFileReference("Ask @alice about it"), undefined);
  assert.equal(promptFileReference("@"), undefined);
});

test("file references resolve beside the workflow file, ~ to the home folder, absolute paths as they are", () => {
  const where = { workflowFile: "/repo/.baton/workflows/review.dot", baseDir: "/cwd", homeDir: "/home/me" };
  assert.equal(resolvePromptFile("prompts/plan.md", where), "/repo/.baton/workflows/prompts/plan.md");
  assert.equal(resolvePromptFile("../common/x.md", where), "/repo/.baton/common/x.md");
  assert.equal(resolvePromptFile("~/shared/y.md", where), "/home/me/shared/y.md");
  assert.equal(resolvePromptFile("/etc/z.md", where), "/etc/z.md");
  assert.equal(resolvePromptFile("p.md", { ...where, workflowFile: undefined }), "/cwd/p.md");
});

test("a stage's template: its prompt, the file it names, or its label", async () => {
  const definition = { ...defineWorkflow("p", { nodes: [start(), agent("a", "@prompts/a.md"), agent("b", "Inline {{ goal }}"), { id: "c", handler: "agent", shape: "box", label: "Summarise" }, exit()], edges: [] }), file: "/wf/flow.dot" };
  const read: string[] = [];
  const io = { readFile: async (path: string) => (read.push(path), `from ${path}`), baseDir: "/cwd", homeDir: "/home/me" };
  const templates = await Promise.all(definition.nodes.filter((n) => n.handler === "agent").map((n) => stagePromptTemplate(definition, n, io)));
  assert.deepEqual(templates, ["from /wf/prompts/a.md", "Inline {{ goal }}", "Summarise"]);
  assert.deepEqual(read, ["/wf/prompts/a.md"]);
});
