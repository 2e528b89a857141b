import { applyToCatalog, type CatalogPatch, type Envelope } from "@baton/protocol/core";
import type { RunRow } from "../api/client.ts";
import { num } from "../timeline/data.ts";

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
  // The same rule the store's index applies to its rows, so the list matches `GET /api/runs`.
  const patch: CatalogPatch = {};
  applyToCatalog(patch, event);
  const index = rows.findIndex((row) => row.id === event.run);
  if (index === -1) {
    if (event.type !== "run.created") return rows;
    const number = num(event["number"]) ?? patch.number ?? 0;
    return sortRows([withPatch({ id: event.run, number, status: "created" }, patch), ...rows]);
  }
  const next = [...rows];
  next[index] = withPatch(rows[index]!, patch);
  return next;
}

function withPatch(row: RunRow, patch: CatalogPatch): RunRow {
  const { ended_at: ended, started_at: started, pid: _pid, number: _number, ...fields } = patch;
  const next: RunRow = { ...row, ...fields };
  // A resume keeps the first start; `ended_at: null` means the run is active again.
  if (started !== undefined) next.started_at ??= started;
  if (ended === null) delete next.ended_at;
  else if (ended !== undefined) next.ended_at = ended;
  return next;
}

/** Newest first: by number, which the store assigns in creation order. */
export function sortRows(rows: readonly RunRow[]): RunRow[] {
  return [...rows].sort((a, b) => b.number - a.number);
}

/** Events after which the run list's figures (stage, waiting, cost, branch) are read again. */
const OVERVIEW_TYPES = new Set([
  ...ROW_TYPES,
  "permission.requested",
  "permission.resolved",
  "approval.requested",
  "approval.resolved",
  "stage.started",
  "stage.completed",
  "stage.failed",
  "workspace.ready",
  "git.committed",
]);

export function changesOverview(event: Envelope): boolean {
  return OVERVIEW_TYPES.has(event.type);
}

/** The statuses the list can be filtered by, in the order a person thinks of them. */
export const FILTER_STATUSES = ["running", "paused", "created", "succeeded", "stopped", "failed", "cancelled"] as const;

/** The rows of one status ("" for all). */
export function filterRows(rows: readonly RunRow[], status: string): readonly RunRow[] {
  return status === "" ? rows : rows.filter((row) => row.status === status);
}
