import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseOption, decidePermission, globMatches } from "./policy.ts";

test("with no rules every call is allowed once by the default rule", () => {
  assert.deepEqual(decidePermission([], { kind: "execute", target: "ls" }), { action: "allow", rule: "default" });
});

test("the first matching rule decides, by kind and by pattern", () => {
  const rules = [
    { name: "no-push", action: "deny" as const, kind: "execute", pattern: "git push*" },
    { name: "no-secrets-dir", action: "deny" as const, pattern: "secrets/*" },
    { name: "edits-ok", action: "allow" as const, kind: "edit" },
  ];
  assert.deepEqual(decidePermission(rules, { kind: "execute", target: "git push origin main" }), { action: "deny", rule: "no-push" });
  assert.deepEqual(decidePermission(rules, { kind: "execute", target: "git status" }), { action: "allow", rule: "default" });
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
