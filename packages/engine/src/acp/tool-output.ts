import { asArray, asInt, asObject, asString } from "./json-access.ts";

/** Characters of tool output carried in an event; the rest belongs to the trace store. */
export const PREVIEW_CHARS = 200;

export type FileChange = { path: string; change: "added" | "modified" | "deleted" };

/**
 * The readable output of a tool call from its ACP content: text as is, diffs as unified-style
 * text, terminals by id. Also what the call says about files and its exit code.
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
      parts.push(renderDiff(displayPath(path), oldText, newText));
      files.push({ path, change: oldText === undefined ? "added" : "modified" });
    } else if (entry["type"] === "terminal") {
      parts.push(`[terminal ${asString(entry["terminalId"]) ?? "?"}]`);
    }
  }
  const raw = asObject(rawOutput);
  if (parts.length === 0) {
    const rawText = typeof rawOutput === "string" ? rawOutput : asString(raw?.["output"] ?? raw?.["stdout"]);
    if (rawText !== undefined) parts.push(rawText);
  }
  const exitCode = asInt(raw?.["exit_code"] ?? raw?.["exitCode"] ?? raw?.["code"]);
  return { text: parts.join("\n"), files, ...(exitCode === undefined ? {} : { exitCode }) };
}

/** A whole-file diff: every old line removed, every new line added. Enough for a preview. */
function renderDiff(path: string, oldText: string | undefined, newText: string): string {
  const header = [`--- ${oldText === undefined ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`];
  const removed = oldText === undefined ? [] : linesOf(oldText).map((line) => `-${line}`);
  const added = linesOf(newText).map((line) => `+${line}`);
  return [...header, ...removed, ...added].join("\n");
}

/** A text's lines; the newline that ends the last line does not start another. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
