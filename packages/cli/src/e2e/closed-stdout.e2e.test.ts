import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { BATON_BIN, COMMAND_TIMEOUT_MS, cliEnv, git, linesOf, makeRepo, onlyRunId, readEvents, runBaton, runIds, waitFor, writeScript } from "./cli-harness.ts";

const execFileAsync = promisify(execFile);

/**
 * Runs `baton ARGS | head -n LINES` in `repo` through sh: a real pipe, whose reader takes its
 * lines and goes away (head exits, the reader's side closes its end of the pipe, then touches
 * `<side>/closed`). Resolves with baton's own exit code and what head printed. The files of
 * the pipeline are kept in `side`, out of the repository (a dirty one refuses a run).
 */
async function pipedToHead(repo: string, side: string, args: readonly string[], lines: number): Promise<{ code: number; head: string; stderr: string }> {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const baton = [process.execPath, BATON_BIN, ...args].map(quote).join(" ");
  const [code, head, closed] = ["code", "head.out", "closed"].map((name) => quote(join(side, name)));
  const script = `{ ${baton}; echo $? > ${code}; } | { head -n ${lines} > ${head}; exec 0<&-; touch ${closed}; }`;
  const { stderr } = await execFileAsync("sh", ["-c", script], { cwd: repo, env: cliEnv(), timeout: COMMAND_TIMEOUT_MS });
  return { code: Number((await readFile(join(side, "code"), "utf8")).trim()), head: await readFile(join(side, "head.out"), "utf8"), stderr };
}

/** A script that writes a file, then waits for the reader to have gone before it does the rest. */
function scriptWaitingForTheReader(side: string) {
  return [
    { say: "Starting." },
    { write: { path: "first.txt", content: "first\n" } },
    { run: `while [ ! -e '${join(side, "closed")}' ]; do sleep 0.05; done` },
    { write: { path: "second.txt", content: "second\n" } },
    { run: "echo after the reader left" },
    { say: "Done." },
  ];
}

/** The run went on to its end: completed, its work (both files) committed on its branch. */
async function assertRanToItsEnd(repo: string): Promise<void> {
  const events = await readEvents(repo, await onlyRunId(repo));
  assert.equal(events.at(-1)?.type, "run.completed", `the run ends with its terminal event, not ${events.at(-1)?.type}`);
  const committed = events.find((event) => event.type === "git.committed") as (Envelope & { data: { sha: string } }) | undefined;
  assert.ok(committed !== undefined, "its work is committed");
  assert.equal(await git(repo, "show", `${committed.data.sha}:second.txt`), "second\n", "with what it did after the reader left");
}

for (const [mode, args] of [
  ["--json", ["--json"]],
  ["the human view", []],
] as const) {
  test(`baton run ${mode} | head: the run goes on to its end with stdout dropped, work committed, exit 0 for a success`, async () => {
    const repo = await makeRepo("cli-epipe-run-");
    const side = await testTempDir("cli-epipe-pipe-");
    const script = await writeScript(repo, "steps.json", scriptWaitingForTheReader(side));
    const piped = await pipedToHead(repo, side, ["run", "--agent", "fake", "--script", script, ...args], 3);
    assert.equal(linesOf(piped.head).length, 3);
    await assertRanToItsEnd(repo);
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stderr, /^baton: stdout was closed; run 1 goes on without output \(baton events 1 shows it\)$/m);
  });
}

test("baton run | head for a run that fails: the exit code is the run's (1), not a success", async () => {
  const repo = await makeRepo("cli-epipe-fail-");
  const side = await testTempDir("cli-epipe-pipe-");
  const script = await writeScript(repo, "steps.json", [
    { say: "Starting." },
    { run: `while [ ! -e '${join(side, "closed")}' ]; do sleep 0.05; done` },
    { crash: 3 },
  ]);
  const piped = await pipedToHead(repo, side, ["run", "--agent", "fake", "--script", script, "--json"], 3);
  assert.equal(piped.code, 1, piped.stderr);
  const events = await readEvents(repo, await onlyRunId(repo));
  assert.equal(events.at(-1)?.type, "run.failed");
});

test("baton events --follow | head: once its stdout has no reader the follower ends, exit 0", async () => {
  const repo = await makeRepo("cli-epipe-follow-");
  const side = await testTempDir("cli-epipe-pipe-");
  const script = await writeScript(repo, "steps.json", [{ say: "One." }, { write: { path: "a.txt", content: "a\n" } }]);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const piped = pipedToHead(repo, side, ["events", "--follow", "--json"], 2);
  await waitFor("the reader to go away", () => existsSync(join(side, "closed")));
  // New events for the follower to write: its first write after that finds no reader.
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const { code, head, stderr } = await piped;
  assert.equal(code, 0, stderr);
  assert.equal(stderr, "");
  assert.equal(linesOf(head).length, 2);
  assert.equal((await runIds(repo)).length, 2);
});
