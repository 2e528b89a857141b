import { definedFields } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import type { RunStore } from "./contract/run-store.ts";
import type { StoreStatus } from "./pg/store-status.ts";

export type { StoreStatus };
import { openStore as openFileStore, type StoreOptions as FileStoreOptions } from "./file/open-store.ts";

export type StoreOptions = FileStoreOptions & {
  /**
   * Where the runs are: unset or empty for the embedded store in `batonDir`, or a PostgreSQL
   * URL (`postgres://user@host:5432/db`) for the store many machines share.
   */
  url?: string | undefined;
  /** PostgreSQL only: how long a writer's lease lasts without a heartbeat. */
  leaseMs?: number;
};

/**
 * Opens the store of a project: the embedded one in `batonDir` (see the file store's
 * `openStore`), or, with a PostgreSQL `url`, the shared one (its driver is loaded only then).
 * Every caller outside the store works through the returned contract, whichever store it is.
 *
 * @example
 * await using store = await openStore(".baton");
 * const writer = await store.createRun({ task: "fix the flaky test", agent: "claude", repo });
 */
export async function openStore(batonDir: string, options: StoreOptions = {}): Promise<RunStore> {
  const { url, leaseMs, ...fileOptions } = options;
  if (url === undefined || url === "") return openFileStore(batonDir, fileOptions);
  const { openPgStore } = await import("./pg/open-pg-store.ts");
  checkStoreUrl(url);
  return openPgStore(url, batonDir, definedFields({ now: fileOptions.now, newRunId: fileOptions.newRunId, eventLimitBytes: fileOptions.eventLimitBytes, pollMs: fileOptions.pollMs, leaseMs }));
}

/** Creates or upgrades the schema of the store at `url` (PostgreSQL); returns the versions applied. */
export async function migrateStore(url: string): Promise<number[]> {
  checkStoreUrl(url);
  const { migratePgStore } = await import("./pg/open-pg-store.ts");
  return migratePgStore(url);
}

/** Schema, runs and the feed's state of the store at `url` (PostgreSQL): what holds the feed back. */
export async function storeStatus(url: string): Promise<StoreStatus> {
  checkStoreUrl(url);
  const { pgStoreStatus } = await import("./pg/store-status.ts");
  return pgStoreStatus(url);
}

/** Throws `bad_store_url` unless `url` is one a store takes. */
export function checkStoreUrl(url: string): void {
  if (!/^postgres(ql)?:\/\/[^\s]+$/i.test(url)) {
    throw new BatonError("bad_store_url", `${JSON.stringify(url.slice(0, 200))} is not a store URL`, {
      hint: "give a PostgreSQL URL (postgres://user@host:5432/database), or leave it unset for the embedded store",
    });
  }
}
