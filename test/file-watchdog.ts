// Loaded into every test file's process by test/run.ts (`--import`): a file still running after
// FILE_LIMIT_MS is ended, with what keeps it alive, so one hung file fails the suite in bounded
// time instead of holding it until CI gives up. A file hangs when a test can no longer settle
// (an error thrown uncaught inside a library leaves its promise pending, and node's per-test
// timeout no longer applies to a test that has already failed) and its cleanup never runs.
import { basename } from "node:path";

/** Far above the longest file (the real-agent suites take a few minutes on a loaded 2-core box). */
export const FILE_LIMIT_MS = 20 * 60_000;

const file = process.argv[1] ?? "";
if (/\.test\.[cm]?[jt]s$/.test(file)) {
  const limitMs = Number(process.env.BATON_TEST_FILE_LIMIT_MS ?? FILE_LIMIT_MS);
  setTimeout(() => {
    const alive = process.getActiveResourcesInfo().filter((kind) => kind !== "Timeout");
    process.stderr.write(`✖ ${basename(file)} is still running after ${Math.round(limitMs / 1000)} s: ended, with ${alive.length === 0 ? "nothing" : alive.join(", ")} keeping it alive (a test that cannot settle, or a handle left open)\n`);
    process.exit(1);
  }, limitMs).unref();
}
