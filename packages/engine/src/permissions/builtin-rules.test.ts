import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdir, symlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { testTempDir } from "@baton/protocol/testing";
import { decidePermission } from "./policy.ts";

// Hostile spellings of what the built-in rules refuse: each of these got through once.

test("built-in: git push is denied however a shell would spell it", () => {
  const pushes = [
    "/usr/bin/git push",
    '"git" push',
    "'git' push",
    "g\\it push",
    'git "push"',
    "git pu''sh",
    "\\git push",
    "sh -c 'git push origin'",
    "bash -lc \"cd sub; 'git' push\"",
    "env git push",
    "env -i PATH=/usr/bin git push",
    "sudo -u me git push",
    "GIT_TRACE=1 git push",
    "git -C dir push",
    "git --git-dir=.git --work-tree=. push",
    "git --git-dir .git push",
    "git -c core.askPass=x -C 'a dir' push",
    "make; \"git\" push",
    "true && g\\it push",
    "echo hi | 'git' push --all",
    "echo $('git' push)",
    "echo `'git' push`",
    "cat <('git' push)",
    "true\n'git' push",
    "eval 'git \"push\"'",
    "git send-pack origin main",
    '"$(git --exec-path)/git-push" origin',
  ];
  for (const command of pushes) {
    assert.deepEqual(decidePermission([], { kind: "execute", target: command }, { root: "/repo" }), { action: "deny", rule: "default:no-git-push" }, command);
  }
  for (const command of ['git "status"', "git -C dir pull", "'git' stash push", "git log --grep 'push'", "gitpush", "/usr/bin/gitk push", "echo '(git) pushes'"]) {
    assert.deepEqual(decidePermission([], { kind: "execute", target: command }, { root: "/repo" }), { action: "allow", rule: "default:allow" }, command);
  }
});

test("built-in: a write through a dangling link to outside the workspace is denied (links to links, relative targets, .. after a link)", async () => {
  const root = await testTempDir("policy-dangling-");
  const outside = await testTempDir("policy-dangling-outside-");
  await mkdir(join(outside, "a", "b"), { recursive: true });
  await symlink(join(outside, "new.txt"), join(root, "d"));
  await symlink("d", join(root, "to-d"));
  await symlink(relative(root, join(outside, "rel.txt")), join(root, "rel"));
  await symlink(join(outside, "a", "b"), join(root, "deep"));
  await symlink(join(outside, "not-yet", "dir"), join(root, "dangling-dir"));
  await symlink("loop-b", join(root, "loop-a"));
  await symlink("loop-a", join(root, "loop-b"));
  await symlink("inside-target.txt", join(root, "inside-link"));
  const ask = (kind: string, path: string) => decidePermission([], { kind, paths: [path] }, { root });
  const denied = { action: "deny", rule: "default:outside-worktree" };
  for (const path of ["d", join(root, "d"), "to-d", "rel", "deep/../escape.txt", "dangling-dir/file.txt", "loop-a"]) {
    assert.deepEqual(ask("edit", path), denied, path);
  }
  assert.deepEqual(ask("delete", "to-d"), denied);
  assert.deepEqual(ask("move", "rel"), denied);
  assert.deepEqual(ask("edit", "inside-link"), { action: "allow", rule: "default:allow" }, "a dangling link to inside is fine");
  assert.deepEqual(ask("edit", "sub/../inside.txt"), { action: "allow", rule: "default:allow" });
});

test("built-in: Baton's .baton/ and git's .git/ below the workspace cannot be changed; the rest of it can", async () => {
  const root = await testTempDir("policy-state-");
  await mkdir(join(root, ".git", "hooks"), { recursive: true });
  await symlink(join(root, ".git", "hooks"), join(root, "hooks"));
  const ask = (kind: string, ...paths: string[]) => decidePermission([], { kind, paths }, { root });
  const batonState = { action: "deny", rule: "default:baton-state" };
  const gitDir = { action: "deny", rule: "default:git-dir" };
  assert.deepEqual(ask("edit", ".baton/config.toml"), batonState);
  assert.deepEqual(ask("edit", join(root, ".baton", "index.db")), batonState);
  assert.deepEqual(ask("delete", ".baton/runs/01J/events.jsonl"), batonState);
  assert.deepEqual(ask("move", "notes.md", ".baton/rules.toml"), batonState);
  assert.deepEqual(ask("edit", ".baton"), batonState);
  assert.deepEqual(ask("edit", ".git/hooks/pre-commit"), gitDir);
  assert.deepEqual(ask("edit", ".git"), gitDir, "a worktree's .git file names its git dir");
  assert.deepEqual(ask("edit", ".GIT/config"), gitDir);
  assert.deepEqual(ask("edit", "hooks/post-commit"), gitDir, "through a link");
  assert.deepEqual(ask("edit", "vendor/lib/.git/config"), gitDir);
  for (const path of [".gitignore", ".github/workflows/ci.yml", "src/.batonrc", "docs/baton/notes.md"]) {
    assert.deepEqual(ask("edit", path), { action: "allow", rule: "default:allow" }, path);
  }
  assert.deepEqual(ask("read", ".baton/config.toml"), { action: "allow", rule: "default:allow" }, "reading is not changing");
});

test("built-in: in a worktree below .baton/worktrees/ the run's own worktree stays writable, the rest of .baton/ does not", async () => {
  const repo = await testTempDir("policy-worktree-");
  const root = join(repo, ".baton", "worktrees", "3-task");
  await mkdir(join(repo, ".baton", "worktrees", "4-other"), { recursive: true });
  await mkdir(root, { recursive: true });
  const ask = (path: string) => decidePermission([], { kind: "edit", paths: [path] }, { root });
  assert.deepEqual(ask("src/a.ts"), { action: "allow", rule: "default:allow" });
  assert.deepEqual(ask(join(root, "README.md")), { action: "allow", rule: "default:allow" });
  for (const path of ["../../config.toml", join(repo, ".baton", "config.toml"), "../4-other/a.ts", join(repo, ".git", "hooks", "post-commit")]) {
    assert.deepEqual(ask(path), { action: "deny", rule: "default:outside-worktree" }, path);
  }
  assert.deepEqual(ask(".baton/config.toml"), { action: "deny", rule: "default:baton-state" }, "the checked-out .baton/ would be committed");
});
