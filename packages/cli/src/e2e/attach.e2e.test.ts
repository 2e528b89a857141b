import assert from "node:assert/strict";
import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, eventsOfType, makeRepo, readEvents, runBaton, startBaton, waitForEvent, waitForOnlyRun, workspacePath, writeScript } from "./cli-harness.ts";

const ASK_RULE = `
[[permissions.rules]]
name = "ask-echo"
action = "ask"
kind = "execute"
pattern = "echo *"
`;

test("attach replays the run, follows it live, steers with typed lines and answers a permission question inline; Ctrl-C detaches and the run goes on; attaching again replays it all", async (t) => {
  const repo = await makeRepo("cli-attach-");
  await appendFile(join(repo, ".baton", "config.toml"), ASK_RULE);
  const script = await writeScript(repo, "attach.json", [
    { say: "started the work" },
    { wait_for_notice: "use tabs" },
    { say: "using tabs then" },
    { run: "echo asked > asked.txt" },
    { wait_for: "go" },
    { write: { path: "done.txt", content: "done\n" } },
    { say: "all done" },
  ]);
  const run = startBaton(repo, ["run", "Format the code", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the first words", (event) => event.type === "agent.message" || event.type === "turn.started");

  const env = cliEnv({ USER: "ada" });
  const attach = startBaton(repo, ["attach", "1"], { stdin: true, env });
  t.after(() => attach.kill());
  await attach.waitForStdout("the replay and the attach line", (out) => out.includes("▶ run 1") && out.includes("— attached to run 1"));
  attach.child.stdin?.write("Please use tabs, not spaces.\n");
  await attach.waitForStdout("the question asked inline", (out) => /\? run 1 asks you: may .* run\? call \S+ · \/allow/.test(out));
  assert.match(attach.stdout, /✉ ada: Please use tabs, not spaces\. \(in_[0-9a-f]+\)/);
  assert.match(attach.stdout, /input in_[0-9a-f]+ delivered mid-turn/);
  attach.child.stdin?.write("/allow\n");
  await attach.waitForStdout("the answer recorded", (out) => /permission: allow_once \(by ada\)/.test(out));

  attach.child.kill("SIGINT");
  const left = await attach.done;
  assert.equal(left.code, 0, left.stderr);
  assert.match(left.stdout, /detached from run 1; it goes on without you: baton attach 1 to come back\n$/);
  assert.equal(run.running, true, "detaching leaves the run running");

  const again = startBaton(repo, ["attach", "1"], { stdin: true, env });
  t.after(() => again.kill());
  await again.waitForStdout("the replay of what came before", (out) => out.includes("permission: allow_once (by ada)") && out.includes("— attached to run 1"));
  await writeFile(join(await workspacePath(repo, runId), "go"), "");
  const ended = await again.done;
  assert.equal(ended.code, 0, ended.stderr);
  assert.match(ended.stdout, /✔ succeeded/);
  assert.equal((await run.done).code, 0);
  const events = await readEvents(repo, runId);
  const resolved = eventsOfType(events, "permission.resolved").find((event) => event.data["by"] === "human");
  assert.equal(resolved?.data["who"], "ada");
  assert.equal(eventsOfType(events, "input.delivered")[0]?.data["how"], "mid_turn");
});

test("attach --cancel-on-exit cancels the run when it is left; attaching to a finished run replays it and exits with its code", async (t) => {
  const repo = await makeRepo("cli-attach-cancel-");
  const script = await writeScript(repo, "slow.json", [{ say: "waiting" }, { wait_for: "never" }]);
  const run = startBaton(repo, ["run", "Wait", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the turn", (event) => event.type === "turn.started");
  const attach = startBaton(repo, ["attach", "1", "--cancel-on-exit"], { stdin: true });
  t.after(() => attach.kill());
  await attach.waitForStdout("the attach line", (out) => out.includes("— attached to run 1"));
  attach.child.kill("SIGINT");
  const left = await attach.done;
  assert.equal(left.code, 130, left.stderr);
  assert.match(left.stdout, /asked it to cancel \(--cancel-on-exit\)/);
  assert.equal((await run.done).code, 130);
  assert.equal((await readEvents(repo, runId)).at(-1)?.type, "run.cancelled");

  const replay = await runBaton(repo, ["attach", "1"]);
  assert.equal(replay.code, 130);
  assert.match(replay.stdout, /■ cancelled by cli: baton attach --cancel-on-exit/);
  const unknown = await runBaton(repo, ["attach", "99"]);
  assert.equal(unknown.code, 2);
});
