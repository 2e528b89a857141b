import type { Envelope } from "@baton/protocol/core";
import type { RunRow } from "../api/client.ts";
import { num, record, str } from "../timeline/data.ts";

/** Event types that change a run's row in the list. */
const ROW_TYPES = new Set(["run.created", "run.started", "run.paused", "run.completed", "run.failed", "run.cancelled"]);

export function changesRow(event: Envelope): boolean {
  return ROW_TYPES.has(event.type);
}

/**
 * Applies a feed event to the run list, newest run first. The list from `GET /api/runs` stays
 * the reference (the page refetches it after such events); this only makes the change show
 * at once.
 */
export function applyFeedEvent(rows: readonly RunRow[], event: Envelope): readonly RunRow[] {
  if (!changesRow(event)) return rows;
  const data = record(event.data);
  const index = rows.findIndex((row) => row.id === event.run);
  if (index === -1) {
    if (event.type !== "run.created") return rows;
    const number = num(event["number"]) ?? num(data["number"]) ?? 0;
    const row: RunRow = { id: event.run, number, status: "created", task: str(data["task"]), agent: str(data["agent"]), model: str(data["model"]), created_at: event.at };
    return sortRows([row, ...rows]);
  }
  const row = { ...rows[index]! };
  switch (event.type) {
    case "run.started":
      row.status = "running";
      row.started_at ??= event.at;
      delete row.ended_at;
      break;
    case "run.paused":
      row.status = "paused";
      break;
    case "run.completed":
      row.status = data["status"] === "stopped" ? "stopped" : "succeeded";
      row.ended_at = event.at;
      break;
    case "run.failed":
      row.status = "failed";
      row.ended_at = event.at;
      break;
    case "run.cancelled":
      row.status = "cancelled";
      row.ended_at = event.at;
      break;
    default:
      return rows;
  }
  const next = [...rows];
  next[index] = row;
  return next;
}

/** Newest first: by number, which the store assigns in creation order. */
export function sortRows(rows: readonly RunRow[]): RunRow[] {
  return [...rows].sort((a, b) => b.number - a.number);
}
