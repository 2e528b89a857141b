import { dirname, isAbsolute, posix } from "node:path";
import { fillRequired, findProperty, schemaType } from "./json-schema-fill.ts";
import type { JsonSchema } from "./json-schema-fill.ts";
import type { Step } from "./scenario.ts";

/** A function tool the agent offered the model. */
export type OfferedTool = { name: string; parameters: JsonSchema | undefined };

/** What the twin decided to call. */
export type ToolCall = { name: string; args: Record<string, unknown> };

/** Write-like tools, most specific first: Claude `Write`, OpenCode `write`, Gemini `write_file`. */
export const WRITE_TOOL_NAMES = ["write", "Write", "write_file", "WriteFile", "create_file", "writeFile", "createFile"] as const;
/** Shell-like tools: Codex `exec_command`/`shell`, OpenCode `bash`, Claude `Bash`, Gemini `run_shell_command`. */
export const SHELL_TOOL_NAMES = ["exec_command", "bash", "Bash", "run_shell_command", "shell", "shell_command", "local_shell", "terminal"] as const;

const PATH_KEYS = ["file_path", "filePath", "absolute_path", "path", "filename", "file_name", "file", "target_file", "targetFile"];
const CONTENT_KEYS = ["content", "contents", "file_text", "text", "new_content", "newContent", "data", "body"];
const COMMAND_KEYS = ["command", "cmd", "commands", "script"];

/**
 * The first offered tool named like one of `names`, in the order of `names`. A tool exposed
 * through an MCP server (`mcp__acp__Write`, as claude-agent-acp names its own) counts by the part
 * after the last `__`.
 */
export function findTool(tools: readonly OfferedTool[], names: readonly string[]): OfferedTool | undefined {
  for (const name of names) {
    const exact = tools.find((tool) => tool.name === name);
    if (exact !== undefined) return exact;
  }
  for (const name of names) {
    const namespaced = tools.find((tool) => tool.name.split("__").at(-1) === name);
    if (namespaced !== undefined) return namespaced;
  }
  const lower = names.map((name) => name.toLowerCase());
  return tools.find((tool) => lower.includes(tool.name.toLowerCase()));
}

/**
 * Where the agent says it works, from its system prompt or context. Each agent words it its own
 * way; the first pattern that matches wins.
 */
const CWD_PATTERNS = [
  /<cwd>\s*([^<\n]+?)\s*<\/cwd>/, // Codex environment context
  /Primary working directory:\s*(\/\S+)/, // Claude Code
  /working directory:\s*(\/[^\s`'"<>]+)/i, // OpenCode
  /Workspace Directories:\W*(\/[^\s`'"<>]+)/, // Gemini CLI
  /(?:working in the directory|current (?:working )?directory|project directory)\W{0,4}(\/[^\s`'"<>]+)/i,
];

export function findAgentCwd(text: string): string | undefined {
  for (const pattern of CWD_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return match[1].replace(/[.,;:)]+$/, "");
  }
  return undefined;
}

/** POSIX single-quoting for a shell word. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A shell command that creates the file (and its folder) with exactly `content`. */
export function writeFileCommand(path: string, content: string): string {
  const folder = dirname(path);
  const mkdir = folder === "." || folder === "/" ? "" : `mkdir -p ${shellQuote(folder)} && `;
  return `${mkdir}printf '%s' ${shellQuote(content)} > ${shellQuote(path)}`;
}

function shellCall(tool: OfferedTool, command: string, escalate = false): ToolCall {
  const key = findProperty(tool.parameters, COMMAND_KEYS, /command|cmd/i) ?? "command";
  // Codex's `shell` tool takes an argv array; everything else takes one command line.
  const value = schemaType(tool.parameters?.properties?.[key]) === "array" ? ["bash", "-lc", command] : command;
  return { name: tool.name, args: fillRequired(tool.parameters, { [key]: value, ...(escalate ? escalation(tool) : {}) }) };
}

/** The arguments that ask for a command to run outside the sandbox, where the schema has them. */
function escalation(tool: OfferedTool): Record<string, unknown> {
  const properties = tool.parameters?.properties ?? {};
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const values = (schema as { enum?: unknown[] } | undefined)?.enum ?? [];
    if (values.includes("require_escalated")) args[name] = "require_escalated";
  }
  if (Object.keys(args).length > 0 && "justification" in properties) args["justification"] = "The task needs this command to run.";
  return args;
}

export type StepContext = { tools: readonly OfferedTool[]; cwd: string | undefined };

/**
 * The tool call that plays `step` with the tools on offer, or a reason why none can.
 *
 * @example toolCallForStep({ write: { path: "a.txt", content: "x" } }, { tools, cwd: "/repo" })
 *   // → { name: "write", args: { filePath: "/repo/a.txt", content: "x" } } for OpenCode
 */
export function toolCallForStep(step: Step, context: StepContext): ToolCall | { unplayable: string } {
  if ("tool" in step) {
    const named = findTool(context.tools, [step.tool.name]);
    return named === undefined ? { unplayable: `no tool ${step.tool.name} offered (offered: ${context.tools.map((tool) => tool.name).join(", ") || "none"})` } : { name: named.name, args: step.tool.args };
  }
  const shell = findTool(context.tools, SHELL_TOOL_NAMES);
  if ("run" in step) {
    return shell === undefined ? { unplayable: `no shell-like tool offered (looked for ${SHELL_TOOL_NAMES.join(", ")})` } : shellCall(shell, step.run, step.escalate);
  }
  const { content } = step.write;
  const path = isAbsolute(step.write.path) || context.cwd === undefined ? step.write.path : posix.join(context.cwd, step.write.path);
  const writer = findTool(context.tools, WRITE_TOOL_NAMES);
  if (writer !== undefined) {
    const pathKey = findProperty(writer.parameters, PATH_KEYS, /path|file/i) ?? "path";
    const contentKey = findProperty(writer.parameters, CONTENT_KEYS, /content|text/i) ?? "content";
    return { name: writer.name, args: fillRequired(writer.parameters, { [pathKey]: path, [contentKey]: content }) };
  }
  if (shell !== undefined) return shellCall(shell, writeFileCommand(path, content));
  return { unplayable: `no write-like or shell-like tool offered (looked for ${[...WRITE_TOOL_NAMES, ...SHELL_TOOL_NAMES].join(", ")})` };
}
