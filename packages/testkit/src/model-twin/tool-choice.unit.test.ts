import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { fillRequired, sampleValue } from "./json-schema-fill.ts";
import { findAgentCwd, findTool, toolCallForStep, writeFileCommand } from "./tool-choice.ts";
import type { OfferedTool } from "./tool-choice.ts";

const tool = (name: string, properties: Record<string, object> = {}, required: string[] = []): OfferedTool => ({
  name,
  parameters: { type: "object", properties, required },
});
const str = (description?: string) => ({ type: "string", ...(description === undefined ? {} : { description }) });

test("the write-like tool is found by name, exactly first, then behind an MCP prefix, then by case", () => {
  assert.equal(findTool([tool("bash"), tool("write_file"), tool("write")], ["write", "write_file"])?.name, "write");
  assert.equal(findTool([tool("mcp__acp__Write"), tool("Read")], ["write", "Write"])?.name, "mcp__acp__Write");
  assert.equal(findTool([tool("WRITE_FILE")], ["write_file"])?.name, "WRITE_FILE");
  assert.equal(findTool([tool("read")], ["write"]), undefined);
});

test("each agent's way of naming its cwd is recognised", () => {
  assert.equal(findAgentCwd("<environment_context>\n  <cwd>/srv/repo</cwd>\n</environment_context>"), "/srv/repo");
  assert.equal(findAgentCwd("Here is useful information:\nPrimary working directory: /srv/repo\nIs a git repo: true"), "/srv/repo");
  assert.equal(findAgentCwd("<env>\n  Working directory: /srv/repo\n</env>"), "/srv/repo");
  assert.equal(findAgentCwd("- **Workspace Directories:**\n  - /srv/repo\n- **Directory Structure:**"), "/srv/repo");
  assert.equal(findAgentCwd("no directory here"), undefined);
});

test("a write fills the path-like and content-like properties, absolute once the cwd is known", () => {
  const opencode = tool("write", { filePath: str("The absolute path to the file to write"), content: str() }, ["filePath", "content"]);
  const call = toolCallForStep({ write: { path: "src/a.ts", content: "x" } }, { tools: [opencode], cwd: "/repo" });
  assert.deepEqual(call, { name: "write", args: { filePath: "/repo/src/a.ts", content: "x" } });
  const gemini = tool("write_file", { file_path: str(), content: str() }, ["file_path", "content"]);
  assert.deepEqual(toolCallForStep({ write: { path: "a.txt", content: "y" } }, { tools: [gemini], cwd: undefined }), {
    name: "write_file",
    args: { file_path: "a.txt", content: "y" },
  });
});

test("other required properties get plausible values; optional ones are left out", () => {
  const schema = {
    type: "object",
    properties: {
      description: str(),
      mode: { type: "string", enum: ["fast", "slow"] },
      timeout: { type: "integer", minimum: 5 },
      retries: { type: "number", default: 3 },
      dry: { type: "boolean" },
      tags: { type: "array", items: str() },
      extra: str(),
    },
    required: ["description", "mode", "timeout", "retries", "dry", "tags"],
  };
  assert.deepEqual(fillRequired(schema, { description: "given" }), { description: "given", mode: "fast", timeout: 5, retries: 3, dry: false, tags: [] });
  assert.equal(sampleValue({ type: "STRING" }), "model twin step");
  assert.deepEqual(sampleValue({ type: "OBJECT", properties: { a: { type: "NUMBER" } }, required: ["a"] }), { a: 1 });
});

test("without a write-like tool the write becomes a shell command; Codex's argv-style shell gets an array", () => {
  const codex = tool("exec_command", { cmd: str(), workdir: str() }, ["cmd"]);
  const call = toolCallForStep({ write: { path: "n/a.txt", content: "hi\n" } }, { tools: [codex], cwd: "/repo" });
  assert.deepEqual(call, { name: "exec_command", args: { cmd: "mkdir -p '/repo/n' && printf '%s' 'hi\n' > '/repo/n/a.txt'" } });
  const argv = tool("shell", { command: { type: "array", items: str() } }, ["command"]);
  assert.deepEqual(toolCallForStep({ run: "ls" }, { tools: [argv], cwd: undefined }), { name: "shell", args: { command: ["bash", "-lc", "ls"] } });
  const opencodeBash = tool("bash", { command: str(), description: str() }, ["command", "description"]);
  assert.deepEqual(toolCallForStep({ run: "ls" }, { tools: [opencodeBash], cwd: undefined }), { name: "bash", args: { command: "ls", description: "model twin step" } });
});

test("a step with no fitting tool says which tools it looked for", () => {
  const call = toolCallForStep({ run: "ls" }, { tools: [tool("read")], cwd: undefined });
  assert.ok("unplayable" in call);
  assert.match(call.unplayable, /^no shell-like tool offered \(looked for exec_command, bash, /);
});

test("a tool step calls the offered tool of that name (also behind an MCP prefix) with its arguments as they are", () => {
  const args = { questions: [{ question: "Which?", header: "DB", options: [{ label: "A", description: "a" }, { label: "B", description: "b" }], multiSelect: false }] };
  assert.deepEqual(toolCallForStep({ tool: { name: "AskUserQuestion", args } }, { tools: [tool("Bash"), tool("mcp__x__AskUserQuestion")], cwd: undefined }), { name: "mcp__x__AskUserQuestion", args });
  const missing = toolCallForStep({ tool: { name: "AskUserQuestion", args } }, { tools: [tool("Bash"), tool("Write")], cwd: undefined });
  assert.deepEqual(missing, { unplayable: "no tool AskUserQuestion offered (offered: Bash, Write)" });
});

test("the shell write command writes the content byte for byte, quotes and all", async () => {
  const dir = await testTempDir("twin-write-command-");
  const content = "it's \"quoted\" $HOME `x` \\n\nsecond line\n";
  const path = join(dir, "deep", "dir", "file name.txt");
  execFileSync("sh", ["-c", writeFileCommand(path, content)]);
  assert.equal(await readFile(path, "utf8"), content);
});

test("an escalated run asks for unsandboxed execution where the schema offers it, and only there", () => {
  const codex = tool("exec_command", { cmd: str(), justification: str(), sandbox_permissions: { type: "string", enum: ["use_default", "require_escalated"] } }, ["cmd"]);
  assert.deepEqual(toolCallForStep({ run: "make", escalate: true }, { tools: [codex], cwd: undefined }), {
    name: "exec_command",
    args: { cmd: "make", sandbox_permissions: "require_escalated", justification: "The task needs this command to run." },
  });
  assert.deepEqual(toolCallForStep({ run: "make" }, { tools: [codex], cwd: undefined }), { name: "exec_command", args: { cmd: "make" } });
  const bash = tool("bash", { command: str(), description: str() }, ["command"]);
  assert.deepEqual(toolCallForStep({ run: "make", escalate: true }, { tools: [bash], cwd: undefined }), { name: "bash", args: { command: "make" } });
});
