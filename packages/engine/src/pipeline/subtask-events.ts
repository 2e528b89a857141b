import { definedFields } from "@baton/protocol/core";
import type { RunSink } from "../run/run-sink.ts";

/** A `foreach` item that is a subtask of a plan (it has an `id`): its branch's ends are `subtask.*` events too. */
export function subtaskOf(item: unknown): { id: string; title?: string | undefined } | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
  const { id, title } = item as { id?: unknown; title?: unknown };
  if (typeof id !== "string" || id === "") return undefined;
  return definedFields({ id, title: typeof title === "string" ? title : undefined });
}

/** A subtask's branch started or ended. */
export function subtaskUpdated(sink: RunSink, item: unknown, branch: string, status: "building" | "built" | "failed" | "cancelled"): void {
  const subtask = subtaskOf(item);
  if (subtask !== undefined) sink.append("subtask.updated", { ...subtask, status, branch });
}

/** A subtask's branch was merged into the task branch, or conflicted. */
export function subtaskIntegrated(sink: RunSink, item: unknown, branch: string, merged: { commit: string | null; conflicts: readonly string[] }): void {
  const subtask = subtaskOf(item);
  if (subtask !== undefined) sink.append("subtask.integrated", { ...subtask, branch, commit: merged.commit, conflicts: [...merged.conflicts] });
}

/** An object item's fields as flat context keys (`item.id`, `item.prompt`), for `{{ context.item.prompt }}` in a prompt. */
export function itemFields(item: unknown): Record<string, unknown> {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return {};
  return Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([key, value]) => [`item.${key}`, value]));
}
