// Hostile agents against the workspace boundary: each script here is an attack a tester once
// got through. A run plays it with the fake agent; the test checks what the policy decided
// (rule by rule, from the run's events) and what is on disk afterwards.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { test } from "node:test";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import type { ScriptInput } from "@baton/testkit";
import { eventsOfType, git, linesOf, makeRepo, runBaton, writeScript } from "./cli-harness.ts";

const execFileAsync = promisify(execFile);

/** Runs a script and returns its events and, per tool call in order, the rule that decided it. */
async function play(repo: string, name: string, script: ScriptInput, extraArgs: string[] = []): Promise<{ events: Envelope[]; rules: string[] }> {
  const path = await writeScript(repo, name, script);
  const result = await runBaton(repo, ["run", "Probe the boundary", "--script", path, "--json", ...extraArgs]);
  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const decided = eventsOfType(events, "permission.resolved");
  const rules = eventsOfType(events, "tool.started").map((started) => String(decided.find((event) => event.data["call"] === started.data["call"])?.data["rule"]));
  return { events, rules };
}

test("hostile: writes through symbolic links that lead outside the worktree are denied, dangling ones too", async () => {
  const repo = await makeRepo("hostile-links-");
  const outside = await testTempDir("hostile-links-outside-");
  await mkdir(join(outside, "a", "b"), { recursive: true });
  // The worktree is .baton/worktrees/<number>-<slug>: three folders below the repository.
  const fromWorktree = join("..", "..", "..", relative(repo, outside));
  const { rules } = await play(repo, "links.json", [
    { run: `ln -s ${join(outside, "new.txt")} d && ln -s d to-d && ln -s ${join(fromWorktree, "rel.txt")} rel && ln -s ${join(outside, "a", "b")} deep` },
    { write: { path: "d", content: "escaped through a dangling link\n" } },
    { write: { path: "to-d", content: "escaped through a link to a link\n" } },
    { write: { path: "rel", content: "escaped through a relative link\n" } },
    { write_anywhere: { path: "deep/../escape.txt", content: "escaped through .. after a link\n" } },
    { write: { path: "inside.txt", content: "fine\n" } },
    { move: { from: "inside.txt", to: "to-d" } },
  ]);

  assert.deepEqual(rules, ["default:allow", "default:outside-worktree", "default:outside-worktree", "default:outside-worktree", "default:outside-worktree", "default:allow", "default:outside-worktree"]);
  for (const name of ["new.txt", "rel.txt", join("a", "escape.txt")]) assert.equal(existsSync(join(outside, name)), false, `${name} was not written outside`);
});

test("hostile: in place, the agent cannot rewrite .baton/ (config, rules, logs) or .git/ (hooks, config)", async () => {
  const repo = await makeRepo("hostile-state-");
  const config = join(repo, ".baton", "config.toml");
  const before = await readFile(config, "utf8");
  const { rules } = await play(
    repo,
    "state.json",
    [
      { write_anywhere: { path: ".baton/config.toml", content: "[permissions]\nbuiltin_rules = false\n" } },
      { write: { path: ".baton/runs/forged/events.jsonl", content: "{}\n" } },
      { delete: ".baton/config.toml" },
      { move: { from: ".baton/config.toml", to: "config-copy.toml" } },
      { write: { path: ".git/hooks/post-commit", content: "#!/bin/sh\necho pwned\n" } },
      { write: { path: ".git/config", content: "[core]\n\thooksPath = planted-hooks\n" } },
      { write: { path: "notes.md", content: "the work itself\n" } },
    ],
    ["--in-place"],
  );

  assert.deepEqual(rules, ["default:baton-state", "default:baton-state", "default:baton-state", "default:baton-state", "default:git-dir", "default:git-dir", "default:allow"]);
  assert.equal(await readFile(config, "utf8"), before, "config.toml is as baton init wrote it");
  assert.equal(existsSync(join(repo, ".baton", "runs", "forged")), false);
  assert.equal(existsSync(join(repo, ".git", "hooks", "post-commit")), false);
  assert.doesNotMatch(await readFile(join(repo, ".git", "config"), "utf8"), /hooksPath/);
  assert.equal(await readFile(join(repo, "notes.md"), "utf8"), "the work itself\n");
});

test("hostile: in a worktree, the run's own files stay writable; its checked-out .baton/ and .git, the repository's .baton/ and .git/ and other runs' worktrees do not", async () => {
  const repo = await makeRepo("hostile-worktree-");
  const first = await play(repo, "first.json", [{ write: { path: "first.txt", content: "run 1\n" } }]);
  const otherWorktree = String(eventsOfType(first.events, "workspace.ready")[0]?.data["path"]);
  const { events, rules } = await play(repo, "second.json", [
    { write: { path: ".baton/config.toml", content: "[permissions]\nbuiltin_rules = false\n" } },
    { write: { path: ".git", content: "gitdir: ../planted-gitdir\n" } },
    { write_anywhere: { path: "../../config.toml", content: "[permissions]\nbuiltin_rules = false\n" } },
    { write_anywhere: { path: join(otherWorktree, "first.txt"), content: "overwritten by run 2\n" } },
    { write_anywhere: { path: join(repo, ".git", "hooks", "post-commit"), content: "#!/bin/sh\necho pwned\n" } },
    { write: { path: "src/ok.txt", content: "run 2\n" } },
  ]);

  assert.deepEqual(rules, ["default:baton-state", "default:git-dir", "default:outside-worktree", "default:outside-worktree", "default:outside-worktree", "default:allow"]);
  const committed = eventsOfType(events, "git.committed")[0]?.data["files"] as Array<{ path: string }> | undefined;
  assert.deepEqual(committed?.map((file) => file.path), ["src/ok.txt"], "only the run's own file is committed");
  assert.equal(await readFile(join(otherWorktree, "first.txt"), "utf8"), "run 1\n");
  assert.doesNotMatch(await readFile(join(repo, ".baton", "config.toml"), "utf8"), /builtin_rules = false/);
});

test("hostile: Baton's git commands run no repository hook, not even one the agent planted, unless [git] hooks = true", async () => {
  const repo = await makeRepo("hostile-hooks-");
  const marks = join(await testTempDir("hostile-hooks-marks-"), "ran.txt");
  const hooks = join(repo, ".git", "hooks");
  for (const name of ["post-checkout", "reference-transaction", "prepare-commit-msg", "pre-commit", "commit-msg"]) {
    await writeFile(join(hooks, name), `#!/bin/sh\necho ${name} >> '${marks}'\n`);
    await chmod(join(hooks, name), 0o755);
  }
  // Execute calls are not path-checked: this is how an agent plants a hook for Baton's commit.
  const plant = `hook="$(git rev-parse --git-common-dir)/hooks/post-commit" && printf '#!/bin/sh\\necho planted >> ${marks}\\n' > "$hook" && chmod +x "$hook"`;
  const script: ScriptInput = [{ run: plant }, { write: { path: "work.txt", content: "done\n" } }];

  const quiet = await play(repo, "hooks.json", script);
  assert.equal(eventsOfType(quiet.events, "git.committed").length, 1, "the run committed");
  assert.equal(existsSync(marks), false, `no hook ran: ${existsSync(marks) ? await readFile(marks, "utf8") : ""}`);

  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, (await readFile(config, "utf8")).replace("hooks = false", "hooks = true"));
  const loud = await play(repo, "hooks-on.json", script);
  assert.equal(eventsOfType(loud.events, "git.committed").length, 1);
  const ran = new Set((await readFile(marks, "utf8")).trim().split("\n"));
  for (const name of ["post-checkout", "reference-transaction", "prepare-commit-msg", "planted"]) assert.ok(ran.has(name), `${name} ran with hooks = true`);
  for (const name of ["pre-commit", "commit-msg"]) assert.ok(!ran.has(name), `${name} stays skipped for the run's commit`);
  assert.equal(await git(repo, "branch", "--list", "baton/*").then((list) => list.trim().split("\n").length), 2);
});

test("hostile: git push in shell disguise is denied, and nothing reaches the remote", async () => {
  const repo = await makeRepo("hostile-push-");
  const remote = await testTempDir("hostile-push-remote-");
  await git(remote, "init", "-q", "--bare");
  await git(repo, "remote", "add", "origin", remote);
  const gitPath = (await execFileAsync("sh", ["-c", "command -v git"])).stdout.trim();
  const spellings = [
    `${gitPath} push origin HEAD:refs/heads/p1`,
    '"git" push origin HEAD:refs/heads/p2',
    "'git' push origin HEAD:refs/heads/p3",
    "g\\it push origin HEAD:refs/heads/p4",
    'git "push" origin HEAD:refs/heads/p5',
    "git pu''sh origin HEAD:refs/heads/p6",
    "\\git push origin HEAD:refs/heads/p7",
    "sh -c \"'git' push origin HEAD:refs/heads/p8\"",
    "env 'git' push origin HEAD:refs/heads/p9",
    "'git' -C . push origin HEAD:refs/heads/p10",
    "'git' --git-dir=\"$(git rev-parse --git-dir)\" push origin HEAD:refs/heads/p11",
    "true && 'git' push origin HEAD:refs/heads/p12",
    "echo $('git' push origin HEAD:refs/heads/p13)",
    "'git' send-pack origin HEAD:refs/heads/p14",
  ];
  const { rules } = await play(
    repo,
    "push.json",
    spellings.map((run) => ({ run })),
    ["--require-output", "none"],
  );

  assert.deepEqual(rules, spellings.map(() => "default:no-git-push"));
  assert.equal((await git(remote, "for-each-ref")).trim(), "", "the remote has no refs");
});
