// Hostile text against the terminal: a task, an agent and its tools that put escape sequences
// in everything Baton prints. Human output must show them (`\x1b[2J`), never send them raw;
// `--json` must stay the exact JSON of the events; data output into a pipe stays exact.
import assert from "node:assert/strict";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, linesOf, makeRepo, onlyRunId, parseNdjson, readEventsText, runBaton, writeScript } from "./cli-harness.ts";

/** Clears the screen, retitles the window, a C1 CSI, a right-to-left override. */
const EVIL = "\x1b[2J\x1b]0;pwned\x07\x9b2J\u202e";
/** How human output shows it. */
const SHOWN = "\\x1b[2J\\x1b]0;pwned\\x07\\x9b2J\\u202e";
/** Anything a terminal acts on but newline (and tab). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** How the human form of `baton events` shows it: in the event's JSON, C1 and bidi made visible too. */
const SHOWN_IN_JSON = "\\u001b[2J\\u001b]0;pwned\\u0007\\x9b2J\\u202e";

function assertShownNotSent(output: string, what: string, shown = SHOWN): void {
  const raw = RAW_CONTROL.exec(output);
  assert.equal(raw, null, `${what} sent U+${raw?.[0].charCodeAt(0).toString(16).padStart(4, "0")} raw:\n${JSON.stringify(output)}`);
  assert.ok(output.includes(shown), `${what} shows the sequence as text:\n${output}`);
}

test("hostile: escape sequences in the task, the agent's words and tool calls are shown, not obeyed, by run, runs, show, events and errors", async () => {
  const repo = await makeRepo("hostile-terminal-");
  const script = await writeScript(repo, "evil.json", [
    { say: `Said ${EVIL} this` },
    { think: `Thought ${EVIL} that` },
    { plan: [{ content: `Step ${EVIL}`, status: "in_progress" }] },
    { run: `printf 'out %s\\n' '${EVIL}'` },
    { write: { path: `notes-${EVIL}.txt`, content: `content ${EVIL}\n` } },
  ]);
  const task = `Fix it ${EVIL} now`;

  const run = await runBaton(repo, ["run", task, "--script", script]);
  assert.equal(run.code, 0, run.stderr);
  assertShownNotSent(run.stdout, "baton run");
  for (const part of ["task: Fix it", "Said", "thinking: Thought", "Step", "Run printf"]) {
    assert.ok(linesOf(run.stdout).some((line) => line.includes(part) && line.includes(SHOWN)), `run shows ${part} with the sequence made visible`);
  }

  for (const args of [["runs"], ["show", "1"], ["events", "1"], ["events"]]) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 0, result.stderr);
    assertShownNotSent(result.stdout, `baton ${args.join(" ")}`, args[0] === "events" ? SHOWN_IN_JSON : SHOWN);
  }

  const badRef = await runBaton(repo, ["show", `9${EVIL}`]);
  assert.equal(badRef.code, 2);
  assertShownNotSent(badRef.stderr, "an error quoting a run ref");
  const badOption = await runBaton(repo, ["runs", `--${EVIL}`]);
  assert.equal(badOption.code, 2);
  assert.equal(RAW_CONTROL.exec(badOption.stderr), null, `a usage error quoting an option: ${JSON.stringify(badOption.stderr)}`);

  // --json: the events exactly (the same values as the log), and nothing a terminal acts on.
  const runId = await onlyRunId(repo);
  const json = await runBaton(repo, ["events", "1", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(RAW_CONTROL.exec(json.stdout), null);
  assert.deepEqual(parseNdjson(json.stdout), parseNdjson(await readEventsText(repo, runId)));
  const shown = JSON.parse((await runBaton(repo, ["show", "1", "--json"])).stdout) as { task?: string };
  assert.equal(shown.task, task, "show --json holds the task exactly");

  // A diff into a pipe is data: exact, so that it can be applied.
  const diff = await runBaton(repo, ["diff", "1"]);
  assert.equal(diff.code, 0, diff.stderr);
  assert.ok(diff.stdout.includes(`+content ${EVIL}\n`), "the diff into a pipe is exact");
});

test("hostile: an agent's version line with escape sequences is shown, not obeyed, by baton agents", async () => {
  const repo = await makeRepo("hostile-terminal-agents-");
  const bin = join(repo, ".agents-bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "evil-agent"), `#!/bin/sh\nprintf 'evil %s build\\n' '${EVIL}'\n`);
  await chmod(join(bin, "evil-agent"), 0o755);
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, `${await readFile(config, "utf8")}\n[agents.evil]\ncommand = "evil-agent"\n`);

  const result = await runBaton(repo, ["agents"], { env: cliEnv({ BATON_AGENT_PATH: bin }) });
  assert.equal(result.code, 0, result.stderr);
  assertShownNotSent(result.stdout, "baton agents");
});
