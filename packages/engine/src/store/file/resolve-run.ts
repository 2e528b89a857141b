import { resolveRunRef, runNotFound } from "../contract/run-ref.ts";
import type { RunCatalog, RunSummary } from "./index/run-catalog.ts";

export { runNotFound };

/** A run from a number, an id or a unique id prefix, looked up in index.db (see resolveRunRef). */
export function resolveRun(catalog: RunCatalog, ref: string): Promise<RunSummary> {
  return resolveRunRef(catalog, ref);
}
