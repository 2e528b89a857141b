import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, eventsOfType, makeRepo, readEvents, readTranscriptText, runBaton, runIds, runsDir, startBaton, waitForEvent, waitForOnlyRun, workspacePath, writeScript } from "./cli-harness.ts";

const ADA = cliEnv({ USER: "ada" });

test("baton steer reaches an agent that takes notices mid-turn: input.queued by the user, input.delivered mid_turn, the running turn goes on with it", async (t) => {
  const repo = await makeRepo("cli-steer-notice-");
  const script = await writeScript(repo, "steer.json", [
    { say: "working on it" },
    { wait_for_notice: "keep the public API" },
    { write: { path: "done.txt", content: "done\n" } },
    { say: "heard you" },
  ]);
  const run = startBaton(repo, ["run", "Refactor the module", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the task's turn", (event) => event.type === "turn.started" && event.data["reason"] === "task");

  const steer = await runBaton(repo, ["steer", "1", "Please keep the public API unchanged."], { env: ADA });

  assert.equal(steer.code, 0, steer.stderr);
  assert.match(steer.stdout, /^run 1 took input in_[0-9a-f]{12}; /);
  const ran = await run.done;
  assert.equal(ran.code, 0, ran.stderr);
  const events = await readEvents(repo, runId);
  const [queued] = eventsOfType(events, "input.queued");
  assert.equal(queued?.data["by"], "ada");
  assert.equal(queued?.data["text"], "Please keep the public API unchanged.");
  const [delivered] = eventsOfType(events, "input.delivered");
  assert.equal(delivered?.data["id"], queued?.data["id"]);
  assert.equal(delivered?.data["how"], "mid_turn");
  const notice = eventsOfType(events, "turn.started").find((event) => event.data["turn"] === delivered?.data["turn"]);
  assert.equal(notice?.data["reason"], "notice");
  assert.ok(eventsOfType(events, "agent.message").some((event) => event.data["text"] === "heard you"), "the turn went on after the input came");
  assert.match(await readTranscriptText(repo, runId), /Message from ada, a person watching this run/);
  assert.equal(eventsOfType(events, "input.rejected").length, 0);
  // Taken, the input's request file is gone: a resumed run would not take it again.
  assert.deepEqual(await readdir(join(runsDir(repo), runId, "requests")).catch(() => []), []);
});

test("an agent that takes no notices gets the input when its turn ends, as a turn of its own (reason steer)", async (t) => {
  const repo = await makeRepo("cli-steer-boundary-");
  await appendFile(join(repo, ".baton", "config.toml"), "\n[agents.fake]\nnotices = false\n");
  const script = await writeScript(repo, "steer.json", {
    turns: [
      [{ say: "first turn" }, { wait_for: "go" }, { write: { path: "a.txt", content: "a\n" } }],
      [{ say: "second turn, steered" }],
    ],
  });
  const run = startBaton(repo, ["run", "Do the thing", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the task's turn", (event) => event.type === "turn.started");

  const steer = await runBaton(repo, ["steer", "1", "Also update the changelog."], { env: ADA });
  assert.equal(steer.code, 0, steer.stderr);
  const before = await readEvents(repo, runId);
  assert.equal(eventsOfType(before, "input.queued").length, 1);
  assert.equal(eventsOfType(before, "input.delivered").length, 0, "nothing is delivered while the turn runs");
  await writeFile(join(await workspacePath(repo, runId), "go"), "");

  const ran = await run.done;
  assert.equal(ran.code, 0, ran.stderr);
  const events = await readEvents(repo, runId);
  const [delivered] = eventsOfType(events, "input.delivered");
  assert.equal(delivered?.data["how"], "next_turn");
  const turns = eventsOfType(events, "turn.started").map((event) => [event.data["turn"], event.data["reason"]]);
  assert.deepEqual(turns, [
    [1, "task"],
    [2, "steer"],
  ]);
  assert.equal(delivered?.data["turn"], 2);
  assert.ok(eventsOfType(events, "agent.message").some((event) => event.data["text"] === "second turn, steered"));
});

test("steering a finished run is refused (exit 2) and leaves nothing; a text past [input] max_chars is rejected by the run", async (t) => {
  const repo = await makeRepo("cli-steer-bad-");
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, (await readFile(config, "utf8")).replace("max_chars = 4000", "max_chars = 20"));
  const quick = await writeScript(repo, "quick.json", [{ write: { path: "q.txt", content: "q\n" } }]);
  const done = await runBaton(repo, ["run", "Quick", "--agent", "fake", "--script", quick]);
  assert.equal(done.code, 0, done.stderr);
  const [finished] = await runIds(repo);
  const eventsBefore = await readEvents(repo, finished ?? "");

  const late = await runBaton(repo, ["steer", "1", "too late"]);
  assert.equal(late.code, 2);
  assert.match(late.stderr, /^baton: run 1 is succeeded, so nothing can steer it: start a new run, or baton fork 1\n$/);
  assert.deepEqual(await readEvents(repo, finished ?? ""), eventsBefore);
  // The run's requests/ folder (its cancel watch looks there) holds no request.
  const requests = join(runsDir(repo), finished ?? "", "requests");
  assert.deepEqual(existsSync(requests) ? readdirSync(requests) : [], [], "no request was left for the ended run");

  const empty = await runBaton(repo, ["steer", "1", "  "]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /the text to send is empty/);

  const slow = await writeScript(repo, "slow.json", [{ wait_for: "go" }, { write: { path: "s.txt", content: "s\n" } }]);
  const run = startBaton(repo, ["run", "Slow", "--agent", "fake", "--script", slow, "--json"]);
  t.after(() => run.kill());
  await waitForEvent(repo, await secondRun(repo, finished ?? ""), "the turn", (event) => event.type === "turn.started");
  const long = await runBaton(repo, ["steer", "2", "this text is longer than twenty characters"]);
  assert.equal(long.code, 2);
  assert.match(long.stderr, /^baton: run 2 refused input in_[0-9a-f]+: 42 characters, more than the 20 an input may have: /);
  const second = await secondRun(repo, finished ?? "");
  const [rejected] = eventsOfType(await readEvents(repo, second), "input.rejected");
  assert.equal(rejected?.data["code"], "too_long");
  await writeFile(join(await workspacePath(repo, second), "go"), "");
  assert.equal((await run.done).code, 0);
  assert.equal(eventsOfType(await readEvents(repo, second), "input.queued").length, 0);
});

async function secondRun(repo: string, first: string): Promise<string> {
  for (;;) {
    const other = (await runIds(repo)).find((name) => name !== first);
    if (other !== undefined) return other;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
