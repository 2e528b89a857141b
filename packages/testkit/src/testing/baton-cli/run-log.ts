import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** A durable event as a run's log holds it: an envelope with its seq. */
export type LoggedEvent = { v: number; run: string; seq: number; at: string; type: string; data: Record<string, unknown>; [field: string]: unknown };

/** The durable events of the repository's run `runId`, in log order. */
export async function readLog(repo: string, runId: string): Promise<LoggedEvent[]> {
  const text = await readFile(join(repo, ".baton", "runs", runId, "events.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LoggedEvent);
}
