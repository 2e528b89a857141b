import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The engine's DELIVERIES_FILE, named here so that `baton show` does not load the delivery code. */
const DELIVERIES_FILE = "deliveries.jsonl";

/** A merge (`sha`, `strategy`) or a pull request (`url`, `pull_request`: its number). */
export type NotedDelivery = { run: string; number: number; base: string; sha?: string; strategy?: string; url?: string; pull_request?: number };

/** The deliveries `baton merge` and `baton pr` noted in a run's folder, oldest first. */
export async function deliveriesOf(runDir: string): Promise<NotedDelivery[]> {
  const text = await readFile(join(runDir, DELIVERIES_FILE), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as NotedDelivery];
      } catch {
        return [];
      }
    });
}
