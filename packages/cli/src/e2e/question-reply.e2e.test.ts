import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { cliEnv, eventsOfType, makeRepo, readEvents, readTranscript, runBaton, runsDir, startBaton, waitForEvent, waitForOnlyRun, workspacePath, writeScript } from "./cli-harness.ts";

const FORM = {
  type: "object" as const,
  properties: {
    db: { type: "string", title: "Database", oneOf: [{ const: "postgres", title: "PostgreSQL" }, { const: "sqlite", title: "SQLite" }] },
    replicas: { type: "integer", minimum: 1, maximum: 5 },
    features: { type: "array", items: { anyOf: [{ const: "ttl", title: "Expiry" }, { const: "lru", title: "Eviction" }] } },
    notes: { type: "string" },
  },
  required: ["db"],
};

// Held at `go` after the question, so that replies after the first meet a run still running.
const SCRIPT = [{ ask: { message: "Which database should the cache use?", schema: FORM } }, { wait_for: "go" }];

async function release(repo: string, runId: string): Promise<void> {
  await writeFile(join(await workspacePath(repo, runId), "go"), "");
}

async function askingRun(prefix: string, t: { after: (fn: () => void) => void }, options: { timeout?: string; args?: string[] } = {}) {
  const repo = await makeRepo(prefix);
  if (options.timeout !== undefined) {
    const config = join(repo, ".baton", "config.toml");
    await writeFile(config, (await readFile(config, "utf8")).replace("# [permissions]", `[permissions]\nask_timeout = "${options.timeout}"`));
  }
  const script = await writeScript(repo, "ask.json", SCRIPT);
  const run = startBaton(repo, ["run", "Add a cache", "--agent", "fake", "--script", script, "--json", ...(options.args ?? [])]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  const asked = await waitForEvent(repo, runId, "the agent's question", (event) => event.type === "question.asked");
  return { repo, run, runId, asked, id: String(asked.data["id"]) };
}

function answeredOf(events: readonly Envelope[], id: string): Record<string, unknown> | undefined {
  return eventsOfType(events, "question.answered").find((event) => event.data["id"] === id)?.data;
}

/** What the fake agent said it was told: `The user answered: {…}`. */
function toldAgent(events: readonly Envelope[]): unknown {
  const said = eventsOfType(events, "agent.message").map((event) => String(event.data["text"])).find((text) => text.startsWith("The user answered: "));
  return said === undefined ? undefined : JSON.parse(said.slice("The user answered: ".length));
}

async function requestFiles(repo: string, runId: string): Promise<string[]> {
  return (await readdir(join(runsDir(repo), runId, "requests")).catch(() => [] as string[])).filter((name) => !name.startsWith("."));
}

test("a question the agent asks waits for a person: bad replies are refused naming the field and change nothing; baton reply fills the form, recorded by human and who; a second reply is a conflict", async (t) => {
  const { repo, run, runId, asked, id } = await askingRun("cli-question-reply-", t);
  assert.match(id, /^q_[0-9a-f]{12}$/);
  assert.equal(asked.data["awaiting"], "person");
  assert.equal(asked.data["timeout_ms"], 600_000);
  assert.equal(asked.data["message"], "Which database should the cache use?");
  assert.equal(typeof asked.data["call"], "string", "tied to the agent's tool call");
  assert.deepEqual(asked.data["fields"], [
    { name: "db", type: "string", required: true, title: "Database", options: [{ value: "postgres", title: "PostgreSQL" }, { value: "sqlite", title: "SQLite" }] },
    { name: "replicas", type: "integer", required: false, min: 1, max: 5 },
    { name: "features", type: "array", required: false, options: [{ value: "ttl", title: "Expiry" }, { value: "lru", title: "Eviction" }] },
    { name: "notes", type: "string", required: false },
  ]);
  // Baton told the agent it takes form questions.
  const init = (await readTranscript(repo, runId)).find((record) => (record.msg as { method?: string }).method === "initialize");
  assert.deepEqual((init?.msg as { params: { clientCapabilities: { elicitation?: unknown } } }).params.clientCapabilities.elicitation, { form: {} });

  const refused: Array<[string[], RegExp]> = [
    [["q_000000000000", "db=postgres"], /^baton: run 1 has no question "q_000000000000" waiting: waiting: q_/],
    [[id, "db=oracle"], /^baton: question q_\w+: field "db" must be one of postgres, sqlite, not "oracle": the form takes db \(one of postgres \| sqlite\)\n$/],
    [[id, "replicas=2"], /^baton: question q_\w+: field "db" is required: the form takes db \(one of postgres \| sqlite\), replicas\? \(integer\), features\? \(several of ttl \| lru\), notes\? \(string\)\n$/],
    [[id, "db=sqlite", "replicas=9"], /field "replicas" must be at most 5, not 9/],
    [[id, "db=sqlite", "replicas=two"], /field "replicas" takes a number, not "two"/],
    [[id, "db=sqlite", "features=fifo"], /field "features" takes values of ttl, lru, not "fifo"/],
    [[id, "db=sqlite", "colour=red"], /the form has no field "colour"/],
    [[id, "--decline", "db=sqlite"], /^baton: a decline carries no values: /],
  ];
  for (const [args, message] of refused) {
    const result = await runBaton(repo, ["reply", "1", ...args]);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message, args.join(" "));
  }
  assert.deepEqual(await requestFiles(repo, runId), [], "a refused reply leaves nothing");
  assert.equal(answeredOf(await readEvents(repo, runId), id), undefined, "and records nothing");

  const reply = await runBaton(repo, ["reply", "1", id, "db=postgres", "replicas=2", "features=ttl", "features=lru"], { env: cliEnv({ USER: "ada" }) });
  assert.equal(reply.code, 0, reply.stderr);
  assert.equal(reply.stdout, `run 1: question ${id} accept (by ada)\n`);
  const second = await runBaton(repo, ["reply", "1", id, "--decline"], { env: cliEnv({ USER: "bob" }) });
  assert.equal(second.code, 2);
  assert.match(second.stderr, new RegExp(`^baton: run 1: question ${id} was answered already \\(accept by ada\\); this answer changed nothing: `));
  await release(repo, runId);

  const ran = await run.done;
  assert.equal(ran.code, 0, ran.stderr);
  const events = await readEvents(repo, runId);
  const content = { db: "postgres", replicas: 2, features: ["ttl", "lru"] };
  assert.deepEqual(answeredOf(events, id), { session: asked.data["session"], id, call: asked.data["call"], action: "accept", content, by: "human", who: "ada", via: "cli" });
  assert.deepEqual(toldAgent(events), { action: "accept", content });
  assert.equal(eventsOfType(events, "question.answered").length, 1);
  assert.equal(eventsOfType(events, "runner.event").length, 0, "the question is no unknown agent event");
  assert.deepEqual(await requestFiles(repo, runId), [], "the reply was taken and its file removed");
});

test("a question nobody answers within ask_timeout is declined (question:timeout): the agent is told decline; a reply after it is a conflict, one after the run is refused", async (t) => {
  const { repo, run, runId, id } = await askingRun("cli-question-timeout-", t, { timeout: "1s" });
  const answered = await waitForEvent(repo, runId, "the timeout's decline", (event) => event.type === "question.answered" && event.data["id"] === id);
  assert.deepEqual(answered.data, { session: answered.data["session"], id, call: answered.data["call"], action: "decline", by: "policy", rule: "question:timeout", reason: "nobody answered in time" });
  assert.equal(typeof answered.data["call"], "string", "the answer names the tool call too");
  const late = await runBaton(repo, ["reply", "1", id, "db=sqlite"]);
  assert.equal(late.code, 2);
  assert.match(late.stderr, /was answered already \(decline by the policy \(question:timeout\)\)/);
  await release(repo, runId);
  assert.equal((await run.done).code, 0);
  const events = await readEvents(repo, runId);
  assert.deepEqual(toldAgent(events), { action: "decline" });
  const after = await runBaton(repo, ["reply", "1", id, "db=sqlite"]);
  assert.equal(after.code, 2);
  assert.match(after.stderr, /^baton: run 1 is succeeded: it has no question waiting: /);
  assert.equal(eventsOfType(await readEvents(repo, runId), "question.answered").length, 1);
});

test("an unattended run (--yes) does not offer form questions, declines one asked anyway at once and records so; a URL question is declined as one Baton cannot put to a person", async () => {
  const repo = await makeRepo("cli-question-unattended-");
  const script = await writeScript(repo, "ask.json", [
    { ask: { message: "Not asked", schema: FORM } },
    { ask: { message: "Which database?", schema: FORM, regardless: true } },
    { ask: { message: "Sign in", schema: { properties: {} }, mode: "url", regardless: true } },
  ]);
  const ran = await runBaton(repo, ["run", "Add a cache", "--agent", "fake", "--script", script, "--yes", "--timeout", "5m", "--require-output", "none"]);
  assert.equal(ran.code, 0, ran.stderr);
  const [runId] = await readdir(runsDir(repo));
  const events = await readEvents(repo, runId ?? "");
  const asked = eventsOfType(events, "question.asked");
  assert.deepEqual(asked.map((event) => [event.data["mode"], event.data["awaiting"]]), [["form", undefined], ["url", undefined]]);
  const answered = eventsOfType(events, "question.answered").map(({ data }) => [data["id"], data["action"], data["by"], data["rule"]]);
  assert.deepEqual(answered, [
    [asked[0]?.data["id"], "decline", "policy", "question:unattended"],
    [asked[1]?.data["id"], "decline", "policy", "question:unsupported"],
  ]);
  assert.match(String(eventsOfType(events, "question.answered")[1]?.data["reason"]), /not url ones/);
  assert.ok(eventsOfType(events, "agent.message").some((event) => String(event.data["text"]).startsWith("The client takes no form questions")), "no form questions were offered");
  const init = (await readTranscript(repo, runId ?? "")).find((record) => (record.msg as { method?: string }).method === "initialize");
  assert.equal((init?.msg as { params: { clientCapabilities: { elicitation?: unknown } } }).params.clientCapabilities.elicitation, undefined);
  const told = eventsOfType(events, "agent.message").map((event) => String(event.data["text"])).filter((text) => text.startsWith("The user answered"));
  assert.deepEqual(told, ['The user answered: {"action":"decline"}', 'The user answered: {"action":"decline"}']);
  assert.match(ran.stdout, /\? the agent asks: Which database\? \(q_\w+\)/);
  assert.match(ran.stdout, /question q_\w+: decline \(rule question:unattended: the run is unattended\)/);
});

test("a cancelled run ends the question that waits: question.answered cancel, before the run's end", async (t) => {
  const { repo, run, runId, id } = await askingRun("cli-question-cancel-", t);
  const cancel = await runBaton(repo, ["cancel", "1"]);
  assert.equal(cancel.code, 0, cancel.stderr);
  await run.done;
  const events = await readEvents(repo, runId);
  const answered = eventsOfType(events, "question.answered").find((event) => event.data["id"] === id);
  assert.equal(answered?.data["action"], "cancel");
  assert.equal(answered?.data["by"], "policy");
  assert.equal(answered?.data["rule"], "question:turn-cancelled");
  const at = (type: string) => events.findIndex((event) => event.type === type);
  assert.ok(events.indexOf(answered as Envelope) < at("agent.finished"), "answered before the session's end");
});

test("baton attach asks the agent's question inline: a bad /reply is refused naming the field, a good one is recorded by who; /decline answers the next", async (t) => {
  const repo = await makeRepo("cli-question-attach-");
  const script = await writeScript(repo, "ask.json", [
    { ask: { message: "Which database should the cache use?", schema: FORM } },
    { ask: { message: "Shall I go on?", schema: { type: "object", properties: { go: { type: "boolean" } } } } },
  ]);
  const run = startBaton(repo, ["run", "Add a cache", "--agent", "fake", "--script", script, "--json", "--require-output", "none"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  const attach = startBaton(repo, ["attach", "1"], { stdin: true, env: cliEnv({ USER: "ada" }) });
  t.after(() => attach.kill());
  await attach.waitForStdout("the question asked inline", (out) => /\? run 1's agent asks you: Which database should the cache use\? \(q_\w+\) · \/reply db \(one of postgres \| sqlite\) replicas\? \(integer\) features\? \(several of ttl \| lru\) notes\? \(string\), \/decline \[reason\]/.test(out));
  attach.child.stdin?.write("/reply db=oracle\n");
  await attach.waitForStdout("the refusal", (out) => /field "db" must be one of postgres, sqlite, not "oracle"/.test(out));
  attach.child.stdin?.write("/reply db=sqlite notes=keep it small\n");
  await attach.waitForStdout("the answer recorded", (out) => /question q_\w+: accept \{"db":"sqlite","notes":"keep it small"\} \(by ada\)/.test(out));
  await attach.waitForStdout("the next question", (out) => /agent asks you: Shall I go on\?/.test(out));
  attach.child.stdin?.write("/decline not now\n");
  const ended = await attach.done;
  assert.equal(ended.code, 0, ended.stderr);
  assert.equal((await run.done).code, 0);
  const answered = eventsOfType(await readEvents(repo, runId), "question.answered").map(({ data }) => [data["action"], data["content"], data["who"], data["via"], data["reason"]]);
  assert.deepEqual(answered, [
    ["accept", { db: "sqlite", notes: "keep it small" }, "ada", "terminal", undefined],
    ["decline", undefined, "ada", "terminal", "not now"],
  ]);
});
