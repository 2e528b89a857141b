import { unifiedDiff } from "../trace/unified-diff.ts";
import { asArray, asInt, asObject, asString } from "./json-access.ts";
import { definedFields } from "@baton/protocol/core";

/** Characters of tool output carried in an event; the rest belongs to the trace store. */
export const PREVIEW_CHARS = 200;

export type FileChange = { path: string; change: "added" | "modified" | "deleted" };

/**
 * The readable output of a tool call from its ACP content: text as is, diffs as unified diffs
 * (from `oldText`/`newText`), terminal output from `rawOutput`. Also the files its diffs
 * touch and its exit code.
 */
export function summarizeToolContent(
  content: unknown,
  rawOutput: unknown,
  /** How a path is shown: ACP paths are absolute, a diff header reads better relative to the cwd. */
  displayPath: (path: string) => string = (path) => path,
): {
  text: string;
  files: FileChange[];
  exitCode?: number;
} {
  const parts: string[] = [];
  const files: FileChange[] = [];
  for (const item of asArray(content)) {
    const entry = asObject(item);
    if (!entry) continue;
    if (entry["type"] === "content") {
      const block = asObject(entry["content"]);
      const text = asString(block?.["text"]);
      if (text !== undefined) parts.push(text);
    } else if (entry["type"] === "diff") {
      const path = asString(entry["path"]) ?? "";
      const oldText = asString(entry["oldText"]);
      const newText = asString(entry["newText"]) ?? "";
      parts.push(unifiedDiff(displayPath(path), oldText, newText));
      files.push({ path, change: oldText === undefined ? "added" : "modified" });
    } else if (entry["type"] === "terminal") {
      parts.push(`[terminal ${asString(entry["terminalId"]) ?? "?"}]`);
    }
  }
  const raw = asObject(rawOutput);
  const rawText = typeof rawOutput === "string" ? rawOutput : joinDefined(asString(raw?.["output"] ?? raw?.["stdout"]), asString(raw?.["stderr"]));
  // Terminal output the content does not already hold (agents often report it in both).
  if (rawText !== undefined && rawText !== "" && !parts.includes(rawText)) parts.push(rawText);
  const exitCode = asInt(raw?.["exit_code"] ?? raw?.["exitCode"] ?? raw?.["code"]);
  return { text: parts.join("\n"), files, ...definedFields({ exitCode }) };
}

function joinDefined(...texts: Array<string | undefined>): string | undefined {
  const present = texts.filter((text): text is string => text !== undefined && text !== "");
  return present.length === 0 ? undefined : present.join("\n");
}

/**
 * What a tool call's locations say about files, by its kind: an edit modifies, a delete
 * deletes, a move deletes its first location and adds its second.
 */
export function locationChanges(kind: string, locations: readonly string[]): FileChange[] {
  if (kind === "edit") return locations.map((path) => ({ path, change: "modified" }));
  if (kind === "delete") return locations.map((path) => ({ path, change: "deleted" }));
  if (kind === "move" && locations.length >= 2) {
    return [
      { path: locations[0] as string, change: "deleted" },
      { path: locations[1] as string, change: "added" },
    ];
  }
  return [];
}
