import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { isFinalType, type Envelope } from "@baton/protocol";
import {
  eventsOfType,
  git,
  killGroup,
  linesOf,
  makeRepo,
  readEvents,
  runBaton,
  runIds,
  startBaton,
  waitForAgentGroup,
  waitForEvent,
  writeScript,
} from "./cli-harness.ts";

type Data = Record<string, unknown>;
const json = (stdout: string) => linesOf(stdout).map((line) => JSON.parse(line) as Envelope);

async function commitFile(repo: string, path: string, content: string): Promise<void> {
  await writeFile(join(repo, path), content);
  await git(repo, "add", path);
  await git(repo, "commit", "-q", "-m", `Add ${path}`);
}

test("a run works in its own worktree on baton/<number>-<slug>; Baton commits its changes; show and diff report them", async () => {
  const repo = await makeRepo("cli-ws-commit-");
  await commitFile(repo, "old.txt", "a file that is about to move\nwith a few lines\nto be seen as a rename\n");
  await commitFile(repo, "gone.txt", "deleted by the agent\n");
  const head = (await git(repo, "rev-parse", "HEAD")).trim();
  const script = await writeScript(repo, "work.json", [
    { write: { path: "notes/hello.txt", content: "hello\n" } },
    { write: { path: "notes/hello.txt", content: "hello again\n" } },
    { write: { path: "README.md", content: "# sample, edited\n" } },
    { delete: "gone.txt" },
    { move: { from: "old.txt", to: "docs/new.txt" } },
  ]);

  const result = await runBaton(repo, ["run", "Tidy the notes: ünïcode & symbols!", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 0, result.stderr);
  const events = json(result.stdout);
  const runId = events[0]?.run as string;
  const ready = eventsOfType(events, "workspace.ready")[0]?.data as Data;
  const worktree = join(repo, ".baton", "worktrees", "1-tidy-the-notes-unicode-symbols");
  assert.deepEqual(ready, { path: worktree, kind: "worktree", branch: "baton/1-tidy-the-notes-unicode-symbols", base: "main", base_branch: "main", base_sha: head });
  assert.deepEqual(
    eventsOfType(events, "file.changed").map((event) => `${String(event.data["change"])} ${String(event.data["path"])}`),
    ["added notes/hello.txt", "modified README.md", "deleted gone.txt", "deleted old.txt", "added docs/new.txt"],
    "from diffs and locations, relative to the worktree, once per path per turn",
  );
  const committed = eventsOfType<{ sha: string; branch: string; message: string; files: Data[] }>(events, "git.committed");
  assert.equal(committed.length, 1);
  const commit = committed[0]?.data;
  assert.equal(commit?.branch, "baton/1-tidy-the-notes-unicode-symbols");
  assert.equal(commit?.message, "Tidy the notes: ünïcode & symbols!");
  assert.deepEqual(
    [...(commit?.files ?? [])].sort((a, b) => (String(a["path"]) < String(b["path"]) ? -1 : 1)),
    [
      { path: "README.md", change: "modified" },
      { path: "docs/new.txt", change: "renamed", from: "old.txt" },
      { path: "gone.txt", change: "deleted" },
      { path: "notes/hello.txt", change: "added" },
    ],
  );
  const types = events.map((event) => event.type);
  assert.ok(types.indexOf("agent.finished") < types.indexOf("git.committed") && types.indexOf("git.committed") < types.indexOf("run.completed"));
  assert.equal(events.at(-1)?.data["commit"], commit?.sha);
  assert.equal((await git(repo, "rev-parse", commit?.branch ?? "")).trim(), commit?.sha);
  assert.equal(await git(repo, "log", "-1", "--format=%B", commit?.sha ?? ""), `Tidy the notes: ünïcode & symbols!\n\nBaton run ${runId} (run 1).\n\n`);
  assert.equal(await git(repo, "log", "-1", "--format=%an", commit?.sha ?? ""), "Baton Test\n", "the user's identity when git has one");

  // The repository itself is untouched: still on main, at the same commit, clean.
  assert.equal((await git(repo, "rev-parse", "HEAD")).trim(), head);
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "# sample\n");
  assert.equal(existsSync(join(repo, "notes")), false);
  assert.equal(await git(repo, "status", "--porcelain"), "?? .baton/\n");

  const show = await runBaton(repo, ["show", "1"]);
  assert.match(show.stdout, /^branch: +baton\/1-tidy-the-notes-unicode-symbols \(from main @ [0-9a-f]{12}\)$/m);
  assert.match(show.stdout, new RegExp(`^commit: +${commit?.sha.slice(0, 12) ?? "?"} on baton/1-tidy-the-notes-unicode-symbols · 4 files · Tidy the notes`, "m"));

  const diff = await runBaton(repo, ["diff", "1"]);
  assert.equal(diff.code, 0, diff.stderr);
  assert.equal(diff.stdout, await git(repo, "diff", `${head}..baton/1-tidy-the-notes-unicode-symbols`));
  assert.match(diff.stdout, /^\+hello again$/m);
  const stat = await runBaton(repo, ["diff", "1", "--stat"]);
  assert.match(stat.stdout, /4 files changed/);
});

test("a run that changes nothing makes no commit, and its log says so", async () => {
  const repo = await makeRepo("cli-ws-nochange-");
  const script = await writeScript(repo, "quiet.json", [{ say: "Nothing to do." }, { run: "ls" }]);
  const result = await runBaton(repo, ["run", "Look around", "--agent", "fake", "--script", script, "--json", "--require-output", "none"]);
  assert.equal(result.code, 0, result.stderr);
  const events = json(result.stdout);
  assert.deepEqual(eventsOfType(events, "git.committed"), []);
  assert.deepEqual(
    eventsOfType(events, "log").map((event) => event.data["code"]),
    ["no_changes"],
  );
  assert.equal(events.at(-1)?.data["commit"], undefined);
  assert.equal((await git(repo, "rev-parse", "baton/1-look-around")).trim(), (await git(repo, "rev-parse", "main")).trim());
  assert.match((await runBaton(repo, ["show", "1"])).stdout, /^commit: +none \(nothing changed\)$/m);
});

test("a failed run and a cancelled run keep what the agent wrote: committed on their branch before the final event", async (t) => {
  const repo = await makeRepo("cli-ws-keep-");
  const failing = await writeScript(repo, "fail.json", [{ write: { path: "partial.txt", content: "half done\n" } }, { fail: { code: -32603, message: "boom" } }]);
  const failed = await runBaton(repo, ["run", "Try and fail", "--agent", "fake", "--script", failing, "--json"]);
  assert.equal(failed.code, 1);
  const failedEvents = json(failed.stdout);
  assert.deepEqual(failedEvents.slice(-2).map((event) => event.type), ["git.committed", "run.failed"]);
  assert.equal(await git(repo, "show", "baton/1-try-and-fail:partial.txt"), "half done\n");

  const long = await writeScript(repo, "long.json", [{ write: { path: "started.txt", content: "begun\n" } }, { sleep: 600_000 }]);
  const run = startBaton(repo, ["run", "Start and be cancelled", "--agent", "fake", "--script", long, "--json"]);
  t.after(() => run.kill());
  const agentGroup = await waitForAgentGroup(long);
  t.after(() => killGroup(agentGroup));
  const runId = (await runIds(repo))[1] as string;
  await waitForEvent(repo, runId, "file.changed", (event) => event.type === "file.changed");
  const cancel = await runBaton(repo, ["cancel", "2"]);
  assert.equal(cancel.code, 0, cancel.stderr);
  assert.equal((await run.done).code, 130);
  const events = await readEvents(repo, runId);
  assert.deepEqual(events.slice(-2).map((event) => event.type), ["git.committed", "run.cancelled"]);
  assert.equal(await git(repo, "show", "baton/2-start-and-be-cancelled:started.txt"), "begun\n");
});

test("--base starts the branch from another ref; a bad --base is one line, exit 2, and nothing is created", async () => {
  const repo = await makeRepo("cli-ws-base-");
  const first = (await git(repo, "rev-parse", "HEAD")).trim();
  await git(repo, "tag", "v1");
  await commitFile(repo, "later.txt", "after v1\n");
  const script = await writeScript(repo, "one.json", [{ write: { path: "x.txt", content: "x\n" } }]);

  const bad = await runBaton(repo, ["run", "Whatever", "--agent", "fake", "--script", script, "--base", "no-such-ref"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, "");
  assert.match(bad.stderr, /^baton: --base no-such-ref is not a commit in this repository: pass a branch, tag or commit that exists/);
  assert.equal(linesOf(bad.stderr).length, 1);
  assert.deepEqual(await readdir(join(repo, ".baton", "runs")), []);
  assert.equal(existsSync(join(repo, ".baton", "worktrees")), false);
  assert.equal(await git(repo, "branch", "--list", "baton/*"), "");

  const result = await runBaton(repo, ["run", "From the tag", "--agent", "fake", "--script", script, "--base", "v1", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const ready = eventsOfType(json(result.stdout), "workspace.ready")[0]?.data;
  assert.equal(ready?.["base"], "v1");
  assert.equal(ready?.["base_sha"], first);
  assert.equal(ready?.["base_branch"], undefined);
  assert.equal(existsSync(join(String(ready?.["path"]), "later.txt")), false, "the worktree holds the tag's tree");
  assert.equal((await git(repo, "rev-parse", "baton/1-from-the-tag~1")).trim(), first);
});

test("a dirty tree is refused, naming what is dirty and both ways out; --include-dirty carries the changes into the run's commit", async () => {
  const repo = await makeRepo("cli-ws-dirty-");
  await writeFile(join(repo, "README.md"), "# sample\nstaged line\n");
  await git(repo, "add", "README.md");
  await writeFile(join(repo, "README.md"), "# sample\nstaged line\nunstaged line\n");
  await writeFile(join(repo, "scratch.txt"), "untracked\n");
  const script = await writeScript(repo, "one.json", [{ write: { path: "agent.txt", content: "from the agent\n" } }]);

  const refused = await runBaton(repo, ["run", "Go", "--agent", "fake", "--script", script]);
  assert.equal(refused.code, 2);
  assert.equal(linesOf(refused.stderr).length, 1);
  assert.match(refused.stderr, /uncommitted changes \(README\.md, untracked scratch\.txt\)/);
  assert.match(refused.stderr, /commit or stash them first, or pass --include-dirty/);
  assert.deepEqual(await readdir(join(repo, ".baton", "runs")), []);

  const result = await runBaton(repo, ["run", "Go on", "--agent", "fake", "--script", script, "--include-dirty", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const events = json(result.stdout);
  assert.deepEqual(eventsOfType(events, "workspace.ready")[0]?.data["included_dirty"], ["README.md", "scratch.txt"]);
  const files = (eventsOfType(events, "git.committed")[0]?.data["files"] as Data[]).map((file) => `${String(file["change"])} ${String(file["path"])}`).sort();
  assert.deepEqual(files, ["added agent.txt", "added scratch.txt", "modified README.md"]);
  assert.equal(await git(repo, "show", "baton/1-go-on:README.md"), "# sample\nstaged line\nunstaged line\n");
  // The user's own tree still has its changes, untouched.
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "# sample\nstaged line\nunstaged line\n");
  assert.equal(await git(repo, "diff", "--cached", "--name-only"), "README.md\n");
});

test("--in-place works in the repository itself: no worktree, no branch, no commit", async () => {
  const repo = await makeRepo("cli-ws-inplace-");
  await writeFile(join(repo, "dirty.txt"), "allowed in place\n");
  const script = await writeScript(repo, "one.json", [{ write: { path: "here.txt", content: "in place\n" } }]);
  const result = await runBaton(repo, ["run", "Right here", "--agent", "fake", "--script", script, "--in-place", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const events = json(result.stdout);
  assert.deepEqual(eventsOfType(events, "workspace.ready")[0]?.data, { path: repo, kind: "in_place" });
  assert.deepEqual(eventsOfType(events, "git.committed"), []);
  assert.equal(await readFile(join(repo, "here.txt"), "utf8"), "in place\n");
  assert.equal(await git(repo, "branch", "--list", "baton/*"), "");
  assert.equal(existsSync(join(repo, ".baton", "worktrees")), false);
  const diff = await runBaton(repo, ["diff", "1"]);
  assert.match(diff.stdout, /^\+\+\+ b\/here\.txt$/m, "the working changes, untracked files included");
  const clean = await runBaton(repo, ["clean", "1"]);
  assert.match(clean.stdout, /worked in place; nothing to clean/);
});

test("[workspace] mode = in_place makes every run work in place; --worktree gives one run its own; both flags at once are refused", async () => {
  const repo = await makeRepo("cli-ws-mode-");
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, (await readFile(configPath, "utf8")).replace('mode = "worktree"', 'mode = "in_place"'));
  const script = await writeScript(repo, "one.json", [{ write: { path: "here.txt", content: "x\n" } }]);
  const inPlace = await runBaton(repo, ["run", "By config", "--script", script, "--json"]);
  assert.equal(inPlace.code, 0, inPlace.stderr);
  assert.equal(eventsOfType(json(inPlace.stdout), "workspace.ready")[0]?.data["kind"], "in_place");
  await git(repo, "clean", "-fq", "here.txt");
  const isolated = await runBaton(repo, ["run", "Isolated", "--script", script, "--worktree", "--json"]);
  assert.equal(isolated.code, 0, isolated.stderr);
  assert.equal(eventsOfType(json(isolated.stdout), "workspace.ready")[0]?.data["kind"], "worktree");
  assert.equal(eventsOfType(json(isolated.stdout), "git.committed").length, 1);
  const both = await runBaton(repo, ["run", "Both", "--script", script, "--worktree", "--in-place"]);
  assert.equal(both.code, 2);
  assert.equal(both.stderr, "baton: --in-place and --worktree contradict each other: pass one of them\n");
  assert.equal((await readdir(join(repo, ".baton", "runs"))).length, 2, "the refused run was never created");
});

test("baton clean refuses a running run, removes finished runs' worktrees, deletes merged branches and keeps unmerged ones", async (t) => {
  const repo = await makeRepo("cli-ws-clean-");
  const writes = await writeScript(repo, "writes.json", [{ write: { path: "kept.txt", content: "unmerged work\n" } }]);
  const quiet = await writeScript(repo, "quiet.json", [{ say: "nothing changed" }]);
  const long = await writeScript(repo, "long.json", [{ write: { path: "wip.txt", content: "in progress\n" } }, { sleep: 600_000 }]);
  assert.equal((await runBaton(repo, ["run", "Write it", "--agent", "fake", "--script", writes])).code, 0);
  assert.equal((await runBaton(repo, ["run", "Change nothing", "--agent", "fake", "--script", quiet, "--require-output", "none"])).code, 0);
  const running = startBaton(repo, ["run", "Still going", "--agent", "fake", "--script", long]);
  t.after(() => running.kill());
  const agentGroup = await waitForAgentGroup(long);
  t.after(() => killGroup(agentGroup));
  const runningId = (await runIds(repo))[2] as string;
  await waitForEvent(repo, runningId, "file.changed", (event) => event.type === "file.changed");
  const worktrees = join(repo, ".baton", "worktrees");

  // A running run's uncommitted work shows in diff; clean refuses it.
  assert.match((await runBaton(repo, ["diff", "3"])).stdout, /^\+in progress$/m);
  const refused = await runBaton(repo, ["clean", "3"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^baton: run 3 is running; its worktree is in use: wait for it to end, or cancel it first \(baton cancel 3\)\n$/);
  assert.ok(existsSync(join(worktrees, "3-still-going", "wip.txt")));

  const clean = await runBaton(repo, ["clean"]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /^run 1: removed .*1-write-it; kept branch baton\/1-write-it: 1 commit not merged into main/m);
  assert.match(clean.stdout, /^run 2: removed .*2-change-nothing; deleted branch baton\/2-change-nothing/m);
  assert.doesNotMatch(clean.stdout, /run 3/);
  assert.deepEqual(await readdir(worktrees), ["3-still-going"]);
  assert.equal(await git(repo, "branch", "--list", "--format=%(refname:short)", "baton/*"), "baton/1-write-it\nbaton/3-still-going\n");
  assert.doesNotMatch(await git(repo, "worktree", "list"), /1-write-it|2-change-nothing/);
  // The commit is still reachable: diff works from the branch after its worktree is gone.
  assert.match((await runBaton(repo, ["diff", "1"])).stdout, /^\+unmerged work$/m);

  // Once merged into its base, the kept branch goes too.
  await git(repo, "merge", "-q", "--ff-only", "baton/1-write-it");
  const again = await runBaton(repo, ["clean", "1"]);
  assert.match(again.stdout, /^run 1: deleted branch baton\/1-write-it \(nothing unmerged into main\)$/m);

  assert.equal((await runBaton(repo, ["cancel", "3"])).code, 0);
  assert.equal((await running.done).code, 130);
  const last = (await readEvents(repo, runningId)).at(-1);
  assert.ok(last !== undefined && isFinalType(last.type));
  const final = await runBaton(repo, ["clean", "3"]);
  assert.match(final.stdout, /^run 3: removed .*3-still-going; kept branch baton\/3-still-going: 1 commit not merged/m);
  assert.deepEqual(await readdir(worktrees), []);
});
