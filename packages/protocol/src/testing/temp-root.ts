import { rmSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Names the suite's temporary root. `test/run.ts` sets it for every test process. */
export const TEST_ROOT_ENV = "BATON_TEST_ROOT";

/**
 * The folder of the root whose logs the suite-wide check skips. Only for tests that write an
 * invalid `events.jsonl` on purpose (a torn tail, a gap): everything else is validated.
 */
export const UNVALIDATED_DIR = "unvalidated";

/**
 * A fresh temporary directory for a test. Under `npm test` it lies below `$BATON_TEST_ROOT`,
 * and after the whole suite every `events.jsonl` below it is validated against the committed
 * JSON Schema; then the root is removed. So do not remove it yourself: a run log removed by
 * its test is a log nobody checks.
 *
 * Run alone (`node --test some.test.ts`), it lies in the OS temp directory and is removed
 * when the process exits.
 *
 * @example
 * const repo = await testTempDir("engine-run-");
 * await git(repo, "init");
 */
export async function testTempDir(prefix: string, options: { validateLogs?: boolean } = {}): Promise<string> {
  const root = process.env[TEST_ROOT_ENV];
  if (root === undefined || root === "") return mkdtemp(join(await processTempRoot(), prefix));
  const parent = options.validateLogs === false ? join(root, UNVALIDATED_DIR) : root;
  await mkdir(parent, { recursive: true });
  return mkdtemp(join(parent, prefix));
}

// One root per process when no suite root is given, removed at exit. Held in a module
// variable because `process.once("exit")` per directory would exceed the listener limit.
let fallbackRoot: Promise<string> | undefined;

function processTempRoot(): Promise<string> {
  fallbackRoot ??= mkdtemp(join(tmpdir(), "baton-test-")).then((dir) => {
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return fallbackRoot;
}
