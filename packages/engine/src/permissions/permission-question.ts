import { isAbsolute, relative, sep } from "node:path";
import type { PermissionQuestion } from "./policy.ts";

/** Keys of a tool call's raw input that name files, as agents spell them. */
const PATH_KEYS = ["path", "file_path", "filePath", "source", "destination", "from", "to", "old_path", "new_path", "notebook_path"];

type ToolCallLike = { kind?: string | null; rawInput?: unknown; locations?: ReadonlyArray<{ path: string }> | null };

/**
 * The question to ask the policy about a tool call the agent wants to make: its kind, its
 * command or first path (shown relative to `root` when below it, so rules can say `src/*`),
 * and every path it names (locations and raw input).
 */
export function permissionQuestion(toolCall: ToolCallLike, root: string): PermissionQuestion {
  const input = toolCall.rawInput !== null && typeof toolCall.rawInput === "object" ? (toolCall.rawInput as Record<string, unknown>) : {};
  const command = typeof input["command"] === "string" ? input["command"] : undefined;
  const paths = [
    ...(toolCall.locations ?? []).map((location) => location.path),
    ...PATH_KEYS.flatMap((key) => (typeof input[key] === "string" ? [input[key]] : [])),
  ];
  const question: PermissionQuestion = { kind: toolCall.kind ?? "other", paths };
  const first = paths[0];
  const target = command ?? (first === undefined ? undefined : shown(root, first));
  if (target !== undefined) question.target = target;
  return question;
}

function shown(root: string, path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel) ? rel : path;
}
