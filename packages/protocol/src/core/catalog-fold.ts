import type { Envelope } from "./constants.ts";
import type { RunStatus } from "./event-types.ts";

/**
 * The fields of a run's catalog row that its events decide: the store's index keeps them, and a
 * live run list (the web UI's) patches its rows with the same rule. Mirrors the run-state fold
 * for these few fields, without its per-event copying: this runs on the writer's commit path
 * for every event.
 */
export type CatalogPatch = {
  number?: number;
  status?: RunStatus;
  task?: string;
  agent?: string;
  model?: string;
  created_at?: string;
  /** Kept from the first start: a resume does not move it. */
  started_at?: string;
  /** null clears it: a resumed run has not ended. */
  ended_at?: string | null;
  pid?: number;
};

/** Applies one event to a patch in place. Events that do not concern the catalog are ignored. */
export function applyToCatalog(patch: CatalogPatch, event: Envelope): void {
  if (!event.type.startsWith("run.")) return;
  const data = event.data;
  switch (event.type) {
    case "run.created":
      if (typeof data["number"] === "number" && Number.isSafeInteger(data["number"])) patch.number = data["number"];
      if (typeof data["task"] === "string") patch.task = data["task"];
      if (typeof data["agent"] === "string") patch.agent = data["agent"];
      if (typeof data["model"] === "string") patch.model = data["model"];
      patch.created_at = event.at;
      break;
    case "run.started":
      patch.started_at ??= event.at;
      patch.ended_at = null;
      if (typeof data["pid"] === "number") patch.pid = data["pid"];
      patch.status = "running";
      break;
    case "run.paused":
      patch.status = "paused";
      patch.ended_at = event.at;
      break;
    case "run.completed":
      patch.status = data["status"] === "stopped" ? "stopped" : "succeeded";
      patch.ended_at = event.at;
      break;
    case "run.failed":
      patch.status = "failed";
      patch.ended_at = event.at;
      break;
    case "run.cancelled":
      patch.status = "cancelled";
      patch.ended_at = event.at;
      break;
    default:
      break;
  }
}
