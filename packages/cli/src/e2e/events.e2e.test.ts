import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope, FeedEnvelope } from "@baton/protocol";
import {
  killGroup,
  linesOf,
  makeRepo,
  readEventsText,
  runBaton,
  startBaton,
  waitForAgentGroup,
  writeScript,
} from "./cli-harness.ts";

const SHORT_SCRIPT = [
  { say: "Looking around." },
  { run: "echo one" },
  { write: { path: "out.txt", content: "two\n" } },
  { usage: { input_tokens: 10, output_tokens: 5 } },
  { say: "Done." },
];

async function eventsJson<T = Envelope>(repo: string, args: string[]): Promise<T[]> {
  const result = await runBaton(repo, ["events", ...args, "--json"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  return linesOf(result.stdout).map((line) => JSON.parse(line) as T);
}

test("baton events RUN --after N prints exactly the events with seq > N", async () => {
  const repo = await makeRepo("cli-events-after-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const all = await eventsJson(repo, ["1"]);
  const total = all.length;
  assert.deepEqual(all.map((event) => event.seq), all.map((_, index) => index + 1));
  assert.equal(all.at(-1)?.type, "run.completed");

  for (const after of [0, 1, 2, 7, total - 1, total, total + 5]) {
    const events = await eventsJson(repo, ["1", "--after", String(after)]);
    assert.deepEqual(events, all.filter((event) => (event.seq ?? 0) > after), `--after ${after}`);
  }
  // The human view: one line per event, led by its seq.
  const human = await runBaton(repo, ["events", "1", "--after", String(total - 2)]);
  assert.deepEqual(linesOf(human.stdout).map((line) => Number(line.trim().split(/\s+/)[0])), [total - 1, total]);
});

test("baton events without RUN is the feed of all runs: pos and number on each line, and --after POS resumes exactly", async () => {
  const repo = await makeRepo("cli-events-feed-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  for (let run = 0; run < 2; run += 1) assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const first = await eventsJson(repo, ["1"]);
  const second = await eventsJson(repo, ["2"]);

  const feed = await eventsJson<FeedEnvelope>(repo, []);
  assert.equal(feed.length, first.length + second.length, "every event of every run, once");
  for (const event of feed) {
    assert.ok(Number.isInteger(event.pos) && event.pos > 0, "pos on each line");
    assert.ok(event.number === 1 || event.number === 2, "number on each line");
    assert.equal(event.run, (event.number === 1 ? first : second)[0]?.run);
  }
  for (let index = 1; index < feed.length; index += 1) assert.ok((feed[index]?.pos ?? 0) > (feed[index - 1]?.pos ?? 0), "pos grows");
  // Each run's events appear in seq order, as the runs' own streams.
  const strip = ({ pos: _pos, number: _number, ...event }: FeedEnvelope): Envelope => event;
  assert.deepEqual(feed.filter((event) => event.number === 1).map(strip), first);
  assert.deepEqual(feed.filter((event) => event.number === 2).map(strip), second);

  for (const index of [0, 1, first.length - 1, first.length, feed.length - 2, feed.length - 1]) {
    const cursor = feed[index]?.pos as number;
    assert.deepEqual(await eventsJson<FeedEnvelope>(repo, ["--after", String(cursor)]), feed.slice(index + 1), `--after ${cursor}`);
  }
  const human = await runBaton(repo, ["events", "--after", String(feed.at(-2)?.pos)]);
  assert.match(human.stdout, new RegExp(`^ *${feed.at(-1)?.pos}  #2:${feed.at(-1)?.seq}  .*run\\.completed`));
});

test("baton events RUN --follow, started while the run is going, prints every event once and exits 0 after the final one", async (t) => {
  const repo = await makeRepo("cli-events-follow-");
  const script = await writeScript(repo, "long.json", [{ say: "Started." }, { run: "echo working" }, { sleep: 600_000 }, { say: "never said" }]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  // The run only ends when this test interrupts it, so the followers surely start before its end.
  await run.waitForStdout("turn.started", (stdout) => stdout.includes('"type":"turn.started"'));
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  const follower = startBaton(repo, ["events", "1", "--follow", "--json"]);
  const resumed = startBaton(repo, ["events", "1", "--follow", "--after", "3", "--json"]);
  t.after(() => follower.kill());
  t.after(() => resumed.kill());
  await follower.waitForStdout("the run's events so far", (stdout) => stdout.includes('"type":"tool.completed"'));
  await resumed.waitForStdout("the run's events so far", (stdout) => stdout.includes('"type":"tool.completed"'));
  assert.ok(follower.running && resumed.running, "the followers wait for more");

  run.child.kill("SIGINT");
  const [runResult, followed, resumedResult] = await Promise.all([run.done, follower.done, resumed.done]);

  assert.equal(runResult.code, 130, runResult.stderr);
  assert.equal(followed.code, 0, followed.stderr);
  assert.equal(resumedResult.code, 0, resumedResult.stderr);
  const runId = (JSON.parse(linesOf(runResult.stdout)[0] as string) as Envelope).run;
  const log = linesOf(await readEventsText(repo, runId));
  assert.equal(JSON.parse(log.at(-1) as string).type, "run.cancelled");
  assert.deepEqual(linesOf(followed.stdout), log, "every event once, in order, the final one last");
  assert.deepEqual(linesOf(resumedResult.stdout), log.slice(3));
});
