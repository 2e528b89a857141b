import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { eventsOfType, git, makeRepo, readEvents, runBaton, runIds, startBaton, waitForEvent, waitForOnlyRun, writeScript } from "./cli-harness.ts";

test("baton merge RUN delivers an ended run by a short deliver run naming it; baton show of the original lists the delivery", async () => {
  const repo = await makeRepo("cli-merge-run-");
  const script = await writeScript(repo, "work.json", [{ write: { path: "work.txt", content: "work\n" } }]);
  const first = await runBaton(repo, ["run", "Add the work", "--script", script]);
  assert.equal(first.code, 0, first.stderr);
  await writeFile(join(repo, "README.md"), "# mine, not committed\n");
  const dirty = await runBaton(repo, ["merge", "1"]);
  assert.equal(dirty.code, 1, "the delivery run fails, refused");
  assert.match(dirty.stdout, /Not merged: main is checked out in .* with uncommitted changes .*commit or stash them/);
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "# mine, not committed\n");
  await git(repo, "checkout", "--", "README.md");

  const merged = await runBaton(repo, ["merge", "1", "--strategy", "squash"]);
  assert.equal(merged.code, 0, merged.stderr + merged.stdout);
  assert.match(merged.stdout, /Merged run 1 \(baton\/1-add-the-work\) into main: [0-9a-f]{40}/);
  assert.equal(await readFile(join(repo, "work.txt"), "utf8"), "work\n");
  const ids = await runIds(repo);
  const deliver = ids.at(-1) as string;
  const events = await readEvents(repo, deliver);
  const created = eventsOfType(events, "run.created")[0]?.data;
  assert.equal(created?.["workflow"], "deliver");
  assert.deepEqual((created?.["delivers"] as { number: number }).number, 1);
  const gitMerged = eventsOfType(events, "git.merged")[0];
  assert.equal(gitMerged?.stage?.id, "merge");
  assert.equal(gitMerged?.data["strategy"], "squash");
  assert.equal(events.at(-1)?.type, "run.completed");

  const shown = await runBaton(repo, ["show", "1"]);
  assert.match(shown.stdout, new RegExp(`delivered: ${String(gitMerged?.data["sha"]).slice(0, 12)} into main \\(squash\\) by run 3`));
});

test("baton merge refuses a run that failed validation, and one that worked in place, with exit 2", async () => {
  const repo = await makeRepo("cli-merge-bad-");
  const script = await writeScript(repo, "work.json", [{ write: { path: "work.txt", content: "work\n" } }]);
  const failed = await runBaton(repo, ["run", "Never valid", "--script", script, "--validate", "false"]);
  assert.equal(failed.code, 1);
  const refused = await runBaton(repo, ["merge", "1"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /run 1 failed validation: its work is not delivered/);
  const inPlace = await runBaton(repo, ["run", "In place", "--script", script, "--in-place"]);
  assert.equal(inPlace.code, 0, inPlace.stderr);
  const noBranch = await runBaton(repo, ["merge", "2"]);
  assert.equal(noBranch.code, 2);
  assert.match(noBranch.stderr, /run 2 worked in place, with no branch of its own/);
  const missing = await runBaton(repo, ["merge", "9"]);
  assert.equal(missing.code, 2);
});

test("baton merge refuses a run that is still running (exit 2), and merges it once it has ended", async () => {
  const repo = await makeRepo("cli-merge-running-");
  const script = await writeScript(repo, "slow.json", [{ write: { path: "slow.txt", content: "slow\n" } }, { wait_for: "go" }]);
  const running = startBaton(repo, ["run", "Slow work", "--script", script]);
  const runId = await waitForOnlyRun(repo);
  const ready = await waitForEvent(repo, runId, "the agent's write", (event) => event.type === "tool.completed");
  const refused = await runBaton(repo, ["merge", "1"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /run 1 is running: only a run that has ended can be merged: wait for it to end/);
  const workspace = (await readEvents(repo, runId)).find((event) => event.type === "workspace.ready")?.data["path"];
  await writeFile(join(String(workspace), "go"), "");
  assert.equal((await running.done).code, 0);
  assert.ok(ready);
  const merged = await runBaton(repo, ["merge", "1"]);
  assert.equal(merged.code, 0, merged.stderr + merged.stdout);
  assert.equal(await readFile(join(repo, "slow.txt"), "utf8"), "slow\n");
});
