// For tests: the stores the contract suite runs against, each opened on a fresh project.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { TestContext } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { openStore, type StoreOptions } from "../../open-store.ts";
import type { RunStore } from "../run-store.ts";

/** A fresh project's store of one kind; `open` may be called more than once (other "processes"). */
export type StoreUnderTest = {
  kind: "file" | "postgres";
  batonDir: string;
  /** The store URL (empty for the file store): what a child process needs to open the same store. */
  url: string;
  /** The lease a writer holds (PostgreSQL): how long a dead writer's run waits for recovery. */
  leaseMs: number;
  open(options?: StoreOptions): Promise<RunStore>;
};

export type StoreFactory = (t: TestContext) => Promise<StoreUnderTest | undefined>;

async function freshBatonDir(): Promise<string> {
  const root = await testTempDir("baton-contract-");
  const batonDir = path.join(root, ".baton");
  await mkdir(batonDir);
  return batonDir;
}

export const fileStoreUnderTest: StoreFactory = async () => {
  const batonDir = await freshBatonDir();
  return { kind: "file", batonDir, url: "", leaseMs: 0, open: (options = {}) => openStore(batonDir, { pollMs: 20, ...options }) };
};

/** A short lease, so that a killed writer's run is recovered within the test's patience. */
const TEST_LEASE_MS = 600;

export const pgStoreUnderTest: StoreFactory = async (t) => {
  const { testDatabase } = await import("../../pg/testing/test-database.ts");
  const url = await testDatabase(t);
  if (url === undefined) return undefined;
  const batonDir = await freshBatonDir();
  return { kind: "postgres", batonDir, url, leaseMs: TEST_LEASE_MS, open: (options = {}) => openStore(batonDir, { pollMs: 20, leaseMs: TEST_LEASE_MS, ...options, url }) };
};
