// Fields of ACP updates and prompt answers as Baton's events carry them.
import type { Usage } from "@baton/protocol";
import { asArray, asInt, asObject, asString, type JsonObject } from "./json-access.ts";

export function locationPaths(value: unknown): string[] {
  return asArray(value).flatMap((item) => {
    const path = asString(asObject(item)?.["path"]);
    return path === undefined ? [] : [path];
  });
}

export function toolName(update: JsonObject, kind: string): string {
  const meta = asObject(update["_meta"]);
  const named = asString(asObject(meta?.["claudeCode"])?.["toolName"]) ?? asString(meta?.["toolName"]);
  return named ?? kind;
}

/**
 * The call that started this one, where the agent says so: a subagent's calls name the call
 * that runs the subagent (Claude Code's `_meta.claudeCode.parentToolUseId`).
 */
export function parentCallOf(update: JsonObject): string | undefined {
  const meta = asObject(update["_meta"]);
  return asString(asObject(meta?.["claudeCode"])?.["parentToolUseId"]) ?? asString(meta?.["parentToolCallId"]);
}

export function planEntries(entries: unknown): JsonObject[] {
  return asArray(entries).flatMap((item) => {
    const entry = asObject(item);
    if (!entry) return [];
    const out: JsonObject = { content: asString(entry["content"]) ?? "", status: asString(entry["status"]) ?? "pending" };
    const priority = asString(entry["priority"]);
    if (priority !== undefined) out["priority"] = priority;
    return [out];
  });
}

export function usageOf(raw: JsonObject | undefined): Usage | undefined {
  if (!raw) return undefined;
  const input = asInt(raw["inputTokens"]);
  const output = asInt(raw["outputTokens"]);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = { input_tokens: input ?? 0, output_tokens: output ?? 0 };
  const read = asInt(raw["cachedReadTokens"]);
  const write = asInt(raw["cachedWriteTokens"]);
  if (read !== undefined) usage.cache_read_tokens = read;
  if (write !== undefined) usage.cache_write_tokens = write;
  return usage;
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens };
  const read = (a.cache_read_tokens ?? 0) + (b.cache_read_tokens ?? 0);
  const write = (a.cache_write_tokens ?? 0) + (b.cache_write_tokens ?? 0);
  if (read > 0) sum.cache_read_tokens = read;
  if (write > 0) sum.cache_write_tokens = write;
  return sum;
}
