import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { eventsOfType, git, linesOf, makeRepo, runBaton, startBaton, writeScript } from "./cli-harness.ts";

/** `baton run`s started at once in one repository: more than git's worktree race needs to show. */
const AT_ONCE = 16;

test(`${AT_ONCE} baton run started at once in one repository all succeed, each with its own number, worktree and branch`, async () => {
  const repo = await makeRepo("cli-concurrent-");
  const script = await writeScript(repo, "note.json", [{ write: { path: "note.txt", content: "written in a worktree\n" } }]);

  const runs = Array.from({ length: AT_ONCE }, () => startBaton(repo, ["run", "Write a note", "--agent", "fake", "--script", script, "--json"]));
  const results = await Promise.all(runs.map((run) => run.done));

  for (const [index, result] of results.entries()) assert.equal(result.code, 0, `run ${index + 1} of ${AT_ONCE}: ${result.stderr}`);
  const logs = results.map((result) => linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope));
  const numbers = logs.map((events) => eventsOfType<{ number: number }>(events, "run.created")[0]?.data.number);
  assert.deepEqual(
    [...numbers].sort((a, b) => (a ?? 0) - (b ?? 0)),
    Array.from({ length: AT_ONCE }, (_, i) => i + 1),
    "the run numbers are 1 to N, none taken twice, none skipped",
  );
  const ready = logs.map((events) => eventsOfType<{ path: string; branch: string }>(events, "workspace.ready")[0]?.data);
  assert.equal(new Set(ready.map((data) => data?.path)).size, AT_ONCE, "each run has its own worktree");
  assert.equal(new Set(ready.map((data) => data?.branch)).size, AT_ONCE, "each run has its own branch");
  for (const [index, events] of logs.entries()) {
    assert.equal(eventsOfType(events, "git.committed").length, 1, `run ${numbers[index]} committed its note on its branch`);
  }

  const listed = linesOf(await git(repo, "worktree", "list", "--porcelain")).filter((line) => line.startsWith("worktree "));
  assert.equal(listed.length, 1 + AT_ONCE, "git lists every run's worktree");
  const branches = linesOf(await git(repo, "branch", "--list", "baton/*"));
  assert.equal(branches.length, AT_ONCE, "one branch per run, none left over");
  const list = await runBaton(repo, ["runs", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  const summaries = linesOf(list.stdout).map((line) => JSON.parse(line) as { number: number; status: string });
  assert.deepEqual(
    summaries.map((run) => `${run.number} ${run.status}`),
    Array.from({ length: AT_ONCE }, (_, i) => `${i + 1} succeeded`),
  );
});
