import assert from "node:assert/strict";
import { test } from "node:test";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { testTempDir } from "@baton/protocol/testing";
import { permissionQuestion } from "./permission-question.ts";
import { chooseOption, decidePermission, globMatches } from "./policy.ts";

test("with no rules every call is allowed once by the default rule", () => {
  assert.deepEqual(decidePermission([], { kind: "execute", target: "ls" }), { action: "allow", rule: "default:allow" });
});

test("the first matching rule decides, by kind and by pattern", () => {
  const rules = [
    { name: "no-push", action: "deny" as const, kind: "execute", pattern: "git push*" },
    { name: "no-secrets-dir", action: "deny" as const, pattern: "secrets/*" },
    { name: "edits-ok", action: "allow" as const, kind: "edit" },
  ];
  assert.deepEqual(decidePermission(rules, { kind: "execute", target: "git push origin main" }), { action: "deny", rule: "no-push" });
  assert.deepEqual(decidePermission(rules, { kind: "execute", target: "git status" }), { action: "allow", rule: "default:allow" });
  assert.deepEqual(decidePermission(rules, { kind: "edit", target: "secrets/key.pem" }), { action: "deny", rule: "no-secrets-dir" });
  assert.deepEqual(decidePermission(rules, { kind: "edit", target: "src/a.ts" }), { action: "allow", rule: "edits-ok" });
});

test("globs match the whole text and treat other characters literally", () => {
  assert.ok(globMatches("git push*", "git push --force"));
  assert.ok(!globMatches("git push", "git push --force"));
  assert.ok(globMatches("a?c", "abc"));
  assert.ok(!globMatches("a.c", "abc"));
  assert.ok(globMatches("*.(ts)", "x.(ts)"));
});

test("options: allow prefers allow_once, deny prefers reject_once, none means undefined", () => {
  const options = [
    { optionId: "a1", kind: "allow_always" },
    { optionId: "a2", kind: "allow_once" },
    { optionId: "r1", kind: "reject_once" },
  ];
  assert.equal(chooseOption(options, "allow"), "a2");
  assert.equal(chooseOption(options, "deny"), "r1");
  assert.equal(chooseOption([{ optionId: "a1", kind: "allow_always" }], "deny"), undefined);
});

test("built-in: git push is denied in any reasonable spelling, other git commands are not", () => {
  const pushes = [
    "git push",
    "git push origin main --force",
    "npm test && git push",
    "make; git push -u origin HEAD",
    "git -C /repo push",
    "git -c push.default=current push",
    "git --no-pager push --tags",
    'sh -c "git push origin"',
    "(cd sub && git push)",
    "true || git push",
  ];
  for (const command of pushes) {
    assert.deepEqual(decidePermission([], { kind: "execute", target: command }, { root: "/repo" }), { action: "deny", rule: "default:no-git-push" }, command);
  }
  for (const command of ["git status", "git pull", "git pushd", "git log --grep=push", "echo pushing", "git stash push"]) {
    assert.deepEqual(decidePermission([], { kind: "execute", target: command }, { root: "/repo" }), { action: "allow", rule: "default:allow" }, command);
  }
});

test("built-in: an edit, delete or move outside the workspace is denied, however the path is spelled", () => {
  const root = "/srv/repo/.baton/worktrees/1-x";
  const ask = (kind: string, ...paths: string[]) => decidePermission([], { kind, paths }, { root });
  const outside = { action: "deny", rule: "default:outside-worktree" };
  const allowed = { action: "allow", rule: "default:allow" };
  assert.deepEqual(ask("edit", "/etc/passwd"), outside);
  assert.deepEqual(ask("edit", "../../../outside.txt"), outside);
  assert.deepEqual(ask("edit", "src/../../escape.txt"), outside);
  assert.deepEqual(ask("edit", `${root}/../1-x-sibling/file`), outside);
  assert.deepEqual(ask("edit", "/srv/repo/README.md"), outside, "the repository itself is outside the run's worktree");
  assert.deepEqual(ask("delete", "ok.txt", "/tmp/x"), outside, "every path counts");
  assert.deepEqual(ask("move", `${root}/a.txt`, "../b.txt"), outside);
  assert.deepEqual(ask("edit", `${root}/src/a.ts`), allowed);
  assert.deepEqual(ask("edit", "src/./a.ts"), allowed);
  assert.deepEqual(ask("edit", "src/../a.ts"), allowed);
  assert.deepEqual(ask("read", "/etc/passwd"), allowed, "reading is not changing");
  assert.deepEqual(decidePermission([], { kind: "edit", paths: ["/etc/x"] }, { root, builtinRules: false }), allowed, "built-ins can be turned off");
});

test("built-in: a symbolic link inside the workspace that points outside does not pass", async () => {
  const root = await testTempDir("policy-symlink-");
  const outside = await testTempDir("policy-outside-");
  await symlink(outside, join(root, "link"));
  assert.deepEqual(decidePermission([], { kind: "edit", paths: ["link/file.txt"] }, { root }), { action: "deny", rule: "default:outside-worktree" });
  assert.deepEqual(decidePermission([], { kind: "edit", paths: ["real/new/file.txt"] }, { root }), { action: "allow", rule: "default:allow" });
});

test("the user's rules come before the built-in ones", () => {
  const rules = [{ name: "pushes-ok", action: "allow" as const, kind: "execute", pattern: "git push*" }];
  assert.deepEqual(decidePermission(rules, { kind: "execute", target: "git push" }, { root: "/r" }), { action: "allow", rule: "pushes-ok" });
});

test("the question: command or path relative to the workspace as target, every path named", () => {
  assert.deepEqual(permissionQuestion({ kind: "execute", rawInput: { command: "ls -la" } }, "/r"), { kind: "execute", paths: [], target: "ls -la" });
  assert.deepEqual(permissionQuestion({ kind: "edit", locations: [{ path: "/r/src/a.ts" }], rawInput: { path: "src/a.ts" } }, "/r"), {
    kind: "edit",
    paths: ["/r/src/a.ts", "src/a.ts"],
    target: "src/a.ts",
  });
  assert.deepEqual(permissionQuestion({ kind: "move", rawInput: { from: "a", to: "/elsewhere/b" } }, "/r"), { kind: "move", paths: ["a", "/elsewhere/b"], target: "a" });
  assert.deepEqual(permissionQuestion({ kind: null, locations: [{ path: "/other/x" }] }, "/r"), { kind: "other", paths: ["/other/x"], target: "/other/x" });
});
