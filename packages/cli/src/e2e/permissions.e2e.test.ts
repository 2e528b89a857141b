import assert from "node:assert/strict";
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { eventsOfType, git, linesOf, makeRepo, runBaton, workspacePath, writeScript } from "./cli-harness.ts";
import type { Envelope } from "@baton/protocol";

const NO_RM_RULE = `
[[permissions.rules]]
name = "no-rm"
action = "deny"
kind = "execute"
pattern = "rm *"
`;

test("a deny rule in config.toml rejects a matching command (rule no-rm); an edit in the same run is allowed by default", async () => {
  const repo = await makeRepo("cli-permissions-");
  await appendFile(join(repo, ".baton", "config.toml"), NO_RM_RULE);
  await writeFile(join(repo, "x"), "keep me\n");
  await git(repo, "add", "x");
  await git(repo, "commit", "-q", "-m", "Add x");
  const script = await writeScript(repo, "deny.json", [{ run: "rm -f x" }, { write: { path: "allowed.txt", content: "ok\n" } }]);

  const result = await runBaton(repo, ["run", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const [rm, write] = eventsOfType(events, "tool.started");
  assert.equal(rm?.data["target"], "rm -f x");
  const resolvedFor = (call: unknown) => eventsOfType(events, "permission.resolved").filter((event) => event.data["call"] === call);
  const completedFor = (call: unknown) => eventsOfType(events, "tool.completed").filter((event) => event.data["call"] === call);

  assert.deepEqual(resolvedFor(rm?.data["call"]).map((event) => [event.data["decision"], event.data["rule"], event.data["by"]]), [["reject_once", "no-rm", "policy"]]);
  const rmDone = completedFor(rm?.data["call"]);
  assert.equal(rmDone.length, 1);
  assert.equal(rmDone[0]?.data["status"], "failed");
  assert.equal(rmDone[0]?.data["is_error"], true);
  const worktree = await workspacePath(repo, events[0]?.run ?? "");
  assert.equal(await readFile(join(worktree, "x"), "utf8"), "keep me\n", "the command did not run");

  assert.deepEqual(resolvedFor(write?.data["call"]).map((event) => [event.data["decision"], event.data["rule"]]), [["allow_once", "default:allow"]]);
  assert.equal(completedFor(write?.data["call"])[0]?.data["status"], "completed");
  assert.ok((await stat(join(worktree, "allowed.txt"))).isFile());
  assert.equal(events.at(-1)?.type, "run.completed");

  const show = await runBaton(repo, ["show", "1"]);
  assert.match(show.stdout, /tool calls 2 \(1 failed\) · permissions 2/);
});
