import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { type Envelope } from "@baton/protocol";
import { eventsOfType, git, linesOf, makeRepo, runBaton, writeScript } from "./cli-harness.ts";

type Data = Record<string, unknown>;
const json = (stdout: string) => linesOf(stdout).map((line) => JSON.parse(line) as Envelope);

async function configure(repo: string, toml: string): Promise<void> {
  await appendFile(join(repo, ".baton", "config.toml"), `\n${toml}\n`);
}

test("setup runs in the fresh worktree before the agent; validation fails once, the fix prompt fixes it, --merge lands it in the base and the user's tree shows it", async () => {
  const repo = await makeRepo("cli-deliver-ok-");
  await configure(repo, `[setup]\ncommands = ["echo installed > setup-ran.txt"]\n\n[validation]\ncommands = ["grep -q good result.txt"]`);
  const script = await writeScript(repo, "fix.json", {
    turns: [[{ write: { path: "result.txt", content: "bad\n" } }], [{ write: { path: "result.txt", content: "good\n" } }, { say: "fixed" }]],
  });

  const result = await runBaton(repo, ["run", "Make result good", "--script", script, "--merge", "--json"]);

  assert.equal(result.code, 0, result.stderr);
  const events = json(result.stdout);
  const types = events.map((e) => e.type);
  assert.ok(types.indexOf("setup.completed") < types.indexOf("agent.started"), "setup before the agent starts");
  const command = eventsOfType(events, "setup.command.completed")[0]?.data as Data;
  assert.equal(command["command"], "echo installed > setup-ran.txt");
  assert.equal(command["exit_code"], 0);
  const validations = eventsOfType(events, "validation.completed").map((e) => [e.data["round"], e.data["passed"]]);
  assert.deepEqual(validations, [[0, false], [1, true]]);
  const fix = eventsOfType(events, "validation.fix_requested")[0]?.data as Data;
  assert.deepEqual(fix, { round: 1, max_rounds: 2, commands: ["grep -q good result.txt"] });
  const prompts = eventsOfType(events, "turn.started").map((e) => e.data["reason"]);
  assert.deepEqual(prompts, ["task", "fix"], "the fix prompt is a second turn in the same session, saying why");
  assert.equal(eventsOfType(events, "agent.started").length, 1);
  const merged = eventsOfType(events, "git.merged")[0]?.data as Data;
  assert.equal(merged["base"], "main");
  assert.equal(merged["strategy"], "merge");
  assert.ok(types.indexOf("git.merged") < types.indexOf("run.completed"));
  assert.equal((await git(repo, "rev-parse", "main")).trim(), merged["sha"]);
  assert.equal(await readFile(join(repo, "result.txt"), "utf8"), "good\n", "the user's tree shows the merged state");
  assert.equal(existsSync(join(repo, "setup-ran.txt")), true, "what setup made was committed with the run's work");
  const output = events.find((e) => e.type === "validation.completed")?.data["output_file"];
  assert.equal(typeof output, "string");
});

test("a failing setup fails the run before any agent starts, naming the command and its output's tail", async () => {
  const repo = await makeRepo("cli-deliver-setup-");
  await configure(repo, `[[setup.steps]]\nname = "install"\ncommand = "echo 'npm ERR! missing lockfile'; exit 3"\ntimeout = "30s"`);
  const script = await writeScript(repo, "never.json", [{ write: { path: "x.txt", content: "x\n" } }]);

  const result = await runBaton(repo, ["run", "Never starts", "--script", script, "--json"]);

  assert.equal(result.code, 1, result.stderr);
  const events = json(result.stdout);
  assert.equal(eventsOfType(events, "agent.started").length, 0);
  const failed = eventsOfType(events, "setup.failed")[0]?.data as Data;
  assert.equal(failed["exit_code"], 3);
  assert.match(String(failed["output_tail"]), /npm ERR! missing lockfile/);
  const error = (eventsOfType(events, "run.failed")[0]?.data as { error: { code: string; message: string } }).error;
  assert.equal(error.code, "setup_failed");
  assert.match(error.message, /setup command `echo 'npm ERR! missing lockfile'; exit 3` exited with 3; its output ends:\nnpm ERR! missing lockfile/);
});

test("validation that still fails after max_fix_rounds fails the run validation_failed with its work committed, and nothing is merged", async () => {
  const repo = await makeRepo("cli-deliver-vfail-");
  await configure(repo, `[validation]\nmax_fix_rounds = 1`);
  const before = (await git(repo, "rev-parse", "main")).trim();
  const script = await writeScript(repo, "stubborn.json", { turns: [[{ write: { path: "result.txt", content: "bad\n" } }], [{ say: "tried" }]] });

  const result = await runBaton(repo, ["run", "Never good", "--script", script, "--validate", "echo checking; grep -q good result.txt", "--merge", "--json"]);

  assert.equal(result.code, 1);
  const events = json(result.stdout);
  assert.deepEqual(eventsOfType(events, "validation.completed").map((e) => e.data["passed"]), [false, false]);
  assert.equal(eventsOfType(events, "git.committed").length, 1, "the work is committed all the same");
  assert.equal(eventsOfType(events, "git.merged").length, 0);
  const error = (eventsOfType(events, "run.failed")[0]?.data as { error: { code: string; message: string } }).error;
  assert.equal(error.code, "validation_failed");
  assert.match(error.message, /after 1 fix round: `echo checking; grep -q good result.txt`; the output of .* ends:\nchecking/);
  assert.equal((await git(repo, "rev-parse", "main")).trim(), before);
});

test("--merge into a base checked out with uncommitted changes is refused: the run fails merge_refused, the user's work untouched", async () => {
  const repo = await makeRepo("cli-deliver-dirty-");
  const script = await writeScript(repo, "work.json", [{ write: { path: "work.txt", content: "work\n" } }]);
  const before = (await git(repo, "rev-parse", "main")).trim();
  // The run starts from a clean tree; the user edits while it works (here: before its end, by a setup command that edits the user's checkout).
  await configure(repo, `[setup]\ncommands = ["printf 'mine\\\\n' > '${join(repo, "README.md")}'"]`);

  const result = await runBaton(repo, ["run", "Add work", "--script", script, "--merge", "--json"]);

  assert.equal(result.code, 1);
  const events = json(result.stdout);
  const error = (eventsOfType(events, "run.failed")[0]?.data as { error: { code: string; message: string } }).error;
  assert.equal(error.code, "merge_refused");
  assert.match(error.message, /main is checked out in .* with uncommitted changes \(1 file\).*commit or stash them/);
  assert.equal((await git(repo, "rev-parse", "main")).trim(), before);
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "mine\n");
});

test("--merge with --in-place is refused before the run exists; a bad --merge-strategy is a usage error", async () => {
  const repo = await makeRepo("cli-deliver-bad-");
  const script = await writeScript(repo, "w.json", [{ write: { path: "w.txt", content: "w\n" } }]);
  const inPlace = await runBaton(repo, ["run", "x", "--script", script, "--merge", "--in-place"]);
  assert.equal(inPlace.code, 2);
  assert.match(inPlace.stderr, /--merge needs a run on a branch of its own.*drop --in-place/);
  const strategy = await runBaton(repo, ["run", "x", "--script", script, "--merge", "--merge-strategy", "rebase"]);
  assert.equal(strategy.code, 2);
  assert.match(strategy.stderr, /--merge-strategy: "rebase" is not a merge strategy.*merge, squash, ff-only/);
  await writeFile(join(repo, ".baton", "config.toml"), `[validation]\nmax_fix_rounds = -1\n`);
  const config = await runBaton(repo, ["run", "x", "--script", script]);
  assert.equal(config.code, 2);
  assert.match(config.stderr, /validation\.max_fix_rounds/);
});
