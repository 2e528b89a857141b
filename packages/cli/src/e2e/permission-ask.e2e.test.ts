import assert from "node:assert/strict";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { workflowProject } from "./workflow-harness.ts";
import { cliEnv, eventsOfType, makeRepo, readEvents, runBaton, runIds, runsDir, startBaton, waitForEvent, waitForOnlyRun, workspacePath, writeScript } from "./cli-harness.ts";

const ASK_RULE = `
[[permissions.rules]]
name = "ask-echo"
action = "ask"
kind = "execute"
pattern = "echo *"
`;

// Held at `go` after the call, so that answers after the first meet a run still running.
const SCRIPT = [{ run: "echo asked > asked.txt" }, { wait_for: "go" }, { write: { path: "after.txt", content: "after\n" } }];

async function release(repo: string, runId: string): Promise<void> {
  await writeFile(join(await workspacePath(repo, runId), "go"), "");
}

async function askingRun(prefix: string, t: { after: (fn: () => void) => void }, timeout?: string) {
  const repo = await makeRepo(prefix);
  const config = join(repo, ".baton", "config.toml");
  let text = (await readFile(config, "utf8")) + ASK_RULE;
  if (timeout !== undefined) text = text.replace("# [permissions]", `[permissions]\nask_timeout = "${timeout}"`);
  await writeFile(config, text);
  const script = await writeScript(repo, "ask.json", SCRIPT);
  const run = startBaton(repo, ["run", "Echo something", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  const asked = await waitForEvent(repo, runId, "a question for a person", (event) => event.type === "permission.requested" && event.data["awaiting"] === "person");
  return { repo, run, runId, asked, call: String(asked.data["call"]) };
}

function resolvedOf(events: readonly Envelope[], call: string): Record<string, unknown> | undefined {
  return eventsOfType(events, "permission.resolved").find((event) => event.data["call"] === call)?.data;
}

test("an ask rule waits for a person: baton allow lets the call run, by human and who; an unknown call or option is refused; a second answer is a conflict that changes nothing", async (t) => {
  const { repo, run, runId, asked, call } = await askingRun("cli-ask-allow-", t);
  assert.equal(asked.data["rule"], "ask-echo");
  assert.equal(asked.data["timeout_ms"], 600_000);
  const unknown = await runBaton(repo, ["allow", "1", "no-such-call"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, new RegExp(`^baton: run 1 has no permission question for call "no-such-call": waiting: ${call}\\n$`));
  const badOption = await runBaton(repo, ["allow", "1", call, "--option", "reject_once"]);
  assert.equal(badOption.code, 2);
  assert.match(badOption.stderr, /"reject_once" is not an option to allow call .*: choose one of: allow_once \(Allow once\), allow_always \(Always allow\)/);

  const allow = await runBaton(repo, ["allow", "1", call], { env: cliEnv({ USER: "ada" }) });
  assert.equal(allow.code, 0, allow.stderr);
  assert.match(allow.stdout, new RegExp(`^run 1: call ${call} allow_once \\(allow by ada\\)\\n$`));
  const second = await runBaton(repo, ["deny", "1", call, "--reason", "changed my mind"], { env: cliEnv({ USER: "bob" }) });
  assert.equal(second.code, 2);
  assert.match(second.stderr, /^baton: run 1: call .+ was answered already \(allow_once by ada\); this answer changed nothing: /);
  await release(repo, runId);

  const ran = await run.done;
  assert.equal(ran.code, 0, ran.stderr);
  const events = await readEvents(repo, runId);
  assert.deepEqual(resolvedOf(events, call), { session: asked.data["session"], call, decision: "allow_once", by: "human", rule: "ask-echo", who: "ada", option_id: "allow_once" });
  const tool = eventsOfType(events, "tool.completed").find((event) => event.data["call"] === call);
  assert.equal(tool?.data["status"], "completed");
  // The answer was taken and its file removed: a later question of the same call id can be answered.
  assert.deepEqual(await requestFiles(repo, runId), []);
});

async function requestFiles(repo: string, runId: string): Promise<string[]> {
  return (await readdir(join(runsDir(repo), runId, "requests")).catch(() => [] as string[])).filter((name) => !name.startsWith("."));
}

test("baton deny with a reason rejects the call; the agent goes on without it", async (t) => {
  const { repo, run, runId, call } = await askingRun("cli-ask-deny-", t);
  const deny = await runBaton(repo, ["deny", "1", call, "--reason", "not now"], { env: cliEnv({ USER: "ada" }) });
  assert.equal(deny.code, 0, deny.stderr);
  assert.match(deny.stdout, /reject_once \(deny by ada\)/);
  await release(repo, runId);
  assert.equal((await run.done).code, 0);
  const events = await readEvents(repo, runId);
  assert.equal(resolvedOf(events, call)?.["decision"], "reject_once");
  assert.equal(resolvedOf(events, call)?.["reason"], "not now");
  assert.equal(eventsOfType(events, "tool.completed").find((event) => event.data["call"] === call)?.data["status"], "failed");
});

test("a question nobody answers within ask_timeout is denied (ask:timeout); an answer after it is a conflict, and one after the run is refused", async (t) => {
  const { repo, run, runId, call } = await askingRun("cli-ask-timeout-", t, "1s");
  const resolved = await waitForEvent(repo, runId, "the timeout's denial", (event) => event.type === "permission.resolved" && event.data["call"] === call);
  assert.deepEqual([resolved.data["decision"], resolved.data["by"], resolved.data["rule"]], ["reject_once", "policy", "ask:timeout"]);
  const late = await runBaton(repo, ["allow", "1", call]);
  assert.equal(late.code, 2);
  assert.match(late.stderr, /was answered already \(reject_once by the policy \(ask:timeout\)\)/);
  await release(repo, runId);
  assert.equal((await run.done).code, 0);
  const after = await runBaton(repo, ["allow", "1", call]);
  assert.equal(after.code, 2);
  assert.match(after.stderr, /^baton: run 1 is succeeded: it has no question waiting: /);
  assert.equal(eventsOfType(await readEvents(repo, runId), "permission.resolved").filter((event) => event.data["call"] === call).length, 1);
});

test("an unattended run with an ask rule and no ask timeout is refused before it starts", async () => {
  const repo = await makeRepo("cli-ask-unattended-");
  await appendFile(join(repo, ".baton", "config.toml"), ASK_RULE);
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, (await readFile(config, "utf8")).replace("# [permissions]", '[permissions]\nask_timeout = "none"'));
  const script = await writeScript(repo, "ask.json", SCRIPT);
  const refused = await runBaton(repo, ["run", "Echo", "--agent", "fake", "--script", script]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^baton: an unattended run \(no terminal on stdin, or --yes\) cannot wait for a person: rule "ask-echo" asks, and ask_timeout is "none": set ask_timeout/);
  assert.deepEqual(await runIds(repo), []);
});

test("resuming a paused run unattended with an ask rule and no ask timeout is refused too, before it goes on; the gate still waits", async () => {
  const workflow = `digraph gated {
    goal = "Echo something"
    start [shape=Mdiamond]
    approve [shape=hexagon, label="Go on?"]
    work [prompt="Echo something"]
    exit [shape=Msquare]
    start -> approve
    approve -> work [label="[A] Approve"]
    work -> exit
  }
`;
  const { repo, script } = await workflowProject("gated", workflow, { work: SCRIPT });
  const paused = await runBaton(repo, ["run", "--workflow", "gated", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(paused.code, 4, paused.stderr + paused.stdout);
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, `${(await readFile(config, "utf8")).replace("# [permissions]", '[permissions]\nask_timeout = "none"')}${ASK_RULE}`);
  const [runId] = await runIds(repo);
  const before = await readEvents(repo, runId ?? "");
  for (const args of [["approve", "1"], ["approve", "1", "--detach"]]) {
    const refused = await runBaton(repo, args);
    assert.equal(refused.code, 2, `${args.join(" ")}: ${refused.stderr}`);
    assert.match(refused.stderr, /^baton: an unattended run \(no terminal on stdin, or --yes\) cannot wait for a person: rule "ask-echo" asks, and ask_timeout is "none": set ask_timeout/);
  }
  const after = await readEvents(repo, runId ?? "");
  assert.equal(after.length, before.length, "nothing was recorded");
  assert.equal(after.at(-1)?.type, "run.paused");
});
