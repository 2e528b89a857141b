import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { eventsOfType, linesOf, makeRepo, runBaton, writeScript } from "./cli-harness.ts";

const DRY_RUN_RULE = `
[[permissions.rules]]
name = "dry-run-push-ok"
action = "allow"
kind = "execute"
pattern = "git push --dry-run*"
`;

test("built-in rules: writes outside the worktree and git push are denied and recorded by rule; the user's rules come first", async () => {
  const repo = await makeRepo("cli-policy-");
  await appendFile(join(repo, ".baton", "config.toml"), DRY_RUN_RULE);
  const elsewhere = await testTempDir("cli-policy-outside-");
  const absolute = join(elsewhere, "escaped.txt");
  const script = await writeScript(repo, "policy.json", [
    { write_anywhere: { path: absolute, content: "should not exist\n" } },
    { write_anywhere: { path: "../../escaped.txt", content: "should not exist\n" } },
    { write_anywhere: { path: "sub/../inside.txt", content: "fine\n" } },
    { run: "git push origin main" },
    { run: "echo ready && git push --force" },
    { run: "git push --dry-run origin main" },
    { run: "git status --short" },
  ]);

  const result = await runBaton(repo, ["run", "Try the limits", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const calls = eventsOfType(events, "tool.started").map((event) => event.data["call"]);
  const ruleOf = (call: unknown) => eventsOfType(events, "permission.resolved").find((event) => event.data["call"] === call)?.data;
  assert.deepEqual(
    calls.map((call) => [ruleOf(call)?.["decision"], ruleOf(call)?.["rule"]]),
    [
      ["reject_once", "default:outside-worktree"],
      ["reject_once", "default:outside-worktree"],
      ["allow_once", "default:allow"],
      ["reject_once", "default:no-git-push"],
      ["reject_once", "default:no-git-push"],
      ["allow_once", "dry-run-push-ok"],
      ["allow_once", "default:allow"],
    ],
  );
  assert.equal(existsSync(absolute), false, "the absolute path outside was not written");
  assert.equal(existsSync(join(repo, ".baton", "escaped.txt")), false, "the .. path outside the worktree was not written");
  const worktree = String(eventsOfType(events, "workspace.ready")[0]?.data["path"]);
  assert.ok(existsSync(join(worktree, "inside.txt")), "a path that only looks like it leaves stays allowed");
  const denied = eventsOfType(events, "tool.completed").filter((event) => calls.slice(0, 2).includes(event.data["call"]) || calls.slice(3, 5).includes(event.data["call"]));
  assert.deepEqual(denied.map((event) => event.data["status"]), ["failed", "failed", "failed", "failed"]);
  assert.deepEqual(eventsOfType(events, "file.changed").map((event) => event.data["path"]), ["inside.txt"], "refused writes change no file");
});
