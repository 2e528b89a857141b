// Hostile input, secrets: a secret pasted into the task, and an agent that goes looking for
// Baton's own secrets in /proc. Each case is played as a user meets it: the CLI, the API, a
// fake-agent script.
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { chooseAgentIsolation } from "@baton/engine/isolation";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { SseReader } from "@baton/server/testing";
import {
  cliEnv,
  eventsOfType,
  git,
  killGroup,
  makeRepo,
  onlyRunId,
  readEvents,
  readEventsText,
  readTranscriptText,
  runBaton,
  startBaton,
  waitForAgentGroup,
  workspacePath,
  writeScript,
} from "./cli-harness.ts";

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A deploy token in the shape the hostile tester used: `dpl_` and 27 random letters and digits. */
function deployToken(): string {
  return `dpl_${Array.from({ length: 27 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join("")}`;
}

/**
 * The pieces of a secret that would give it away, as they survive a slug (lower case, other
 * characters turned to dashes): every 8 characters in a row of its random part.
 */
function piecesOf(secret: string): string[] {
  const random = secret.slice(4).toLowerCase();
  return Array.from({ length: random.length - 7 }, (_, i) => random.slice(i, i + 8));
}

function assertNoPiece(what: string, text: string, secret: string): void {
  const lower = text.toLowerCase();
  const found = piecesOf(secret).find((piece) => lower.includes(piece));
  assert.equal(found, undefined, `${what} holds a piece of the secret (${found ?? ""})`);
}

/** Branch names, worktree folders and every commit message of the repository: all git holds. */
async function gitRecord(repo: string): Promise<string> {
  const branches = await git(repo, "for-each-ref", "--format=%(refname)");
  const messages = await git(repo, "log", "--all", "--format=%B");
  const worktrees = await readdir(join(repo, ".baton", "worktrees")).catch(() => []);
  return [branches, messages, ...worktrees].join("\n");
}

test("a secret in the task reaches no branch, worktree, commit message, event, transcript or progress line", async () => {
  const secret = deployToken();
  const task = `Deploy with ${secret} to staging, then note it in DEPLOY.md`;
  const repo = await makeRepo("cli-hostile-task-secret-");
  const script = await writeScript(repo, "deploy.json", [{ write: { path: "DEPLOY.md", content: "deployed\n" } }, { run: "pwd" }, { say: "Deployed." }]);

  const human = await runBaton(repo, ["run", task, "--agent", "fake", "--script", script], { env: cliEnv({ MY_DEPLOY_TOKEN: secret }) });

  assert.equal(human.code, 0, human.stderr);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  const ready = eventsOfType(events, "workspace.ready")[0]?.data;
  assert.equal(ready?.["branch"], "baton/1-deploy-with-redacted-to-staging-then-not");
  assert.equal(eventsOfType(events, "git.committed")[0]?.data["message"], "Deploy with [REDACTED] to staging, then note it in DEPLOY.md");
  assertNoPiece("git (branches, worktrees, commit messages)", await gitRecord(repo), secret);
  assertNoPiece("events.jsonl", await readEventsText(repo, runId), secret);
  assertNoPiece("acp.jsonl (session/new cwd)", await readTranscriptText(repo, runId), secret);
  assertNoPiece("the progress view", human.stdout + human.stderr, secret);
  // The agent still got the task itself: it needs it to do the work.
  const prompt = (await readTranscriptText(repo, runId)).split("\n").find((line) => line.includes('"session/prompt"'));
  assert.ok(prompt?.includes("Deploy with [REDACTED] to staging"), "the transcript of the prompt is redacted");

  const json = await runBaton(repo, ["run", task, "--agent", "fake", "--script", script, "--json"], { env: cliEnv({ MY_DEPLOY_TOKEN: secret }) });
  assert.equal(json.code, 0, json.stderr);
  assertNoPiece("--json output", json.stdout, secret);
  assertNoPiece("git after two runs", await gitRecord(repo), secret);
});

test("a secret in a task started through the API reaches no SSE frame, run summary or branch", async () => {
  const secret = deployToken();
  const repo = await makeRepo("cli-hostile-api-secret-");
  await writeScript(repo, "steps.json", [{ write: { path: "DEPLOY.md", content: "deployed\n" } }, { say: "Deployed." }]);
  const server = startBaton(repo, ["serve", "--port", "0"], { env: cliEnv({ MY_DEPLOY_TOKEN: secret }) });
  try {
    const urlLine = /^\s*http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/m;
    await server.waitForStdout("the URL", (stdout) => urlLine.test(stdout));
    const [, port, token] = urlLine.exec(server.stdout) as RegExpExecArray;
    const base = `http://127.0.0.1:${port as string}`;
    const auth = { authorization: `Bearer ${token as string}` };
    const started = await fetch(`${base}/api/runs`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ task: `Deploy with ${secret}`, agent: "fake", script: "steps.json" }),
    });
    assert.equal(started.status, 201, await started.clone().text());
    const { run } = (await started.json()) as { run: { id: string; number: number } };
    const feed = await SseReader.open(`${base}/api/stream`, auth);
    const stream = await SseReader.open(`${base}/api/runs/${run.id}/stream`, auth);
    await stream.ended;
    await feed.waitFor("the run's end on the feed", () => feed.events<Envelope>().some((event) => event.type === "run.completed"));
    feed.close();
    assert.equal(stream.events<Envelope>().at(-1)?.data["status"], "succeeded");
    assertNoPiece("the run's SSE frames", JSON.stringify(stream.frames), secret);
    assertNoPiece("the feed's SSE frames", JSON.stringify(feed.frames), secret);
    assertNoPiece("GET /api/runs", await (await fetch(`${base}/api/runs`, { headers: auth })).text(), secret);
    assertNoPiece("git", await gitRecord(repo), secret);
  } finally {
    server.child.kill("SIGTERM");
    await server.done;
  }
});

/**
 * The shell of a `run` step is the agent's child: the agent is `$PPID`, and Baton, which
 * started the agent, is the agent's parent. Each probe leaves its findings in the worktree.
 */
const FIND_BATON = `B=$(awk '/^PPid:/ {print $2}' /proc/$PPID/status); echo "$B" > baton.pid`;

/** Why this machine cannot give an agent a user namespace (a container may forbid them), if it cannot. */
const noUserNamespace = await chooseAgentIsolation("user_namespace", process.env["PATH"]).then((isolation) => (isolation.kind === "none" ? isolation.reason : undefined));

test("the agent cannot read Baton's environment or memory through /proc, though it can read its own", { skip: noUserNamespace }, async (t) => {
  const secret = deployToken();
  const repo = await makeRepo("cli-hostile-proc-");
  const handoff = join(await testTempDir("cli-hostile-proc-addr-"), "address");
  const script = await writeScript(repo, "probe.json", [
    { run: `${FIND_BATON}; cat /proc/$B/environ > baton-environ.bin` },
    { run: "cat /proc/$PPID/environ > agent-environ.bin" },
    // A page Baton really has mapped (the test reads Baton's maps and hands its address over):
    // read through /proc/<pid>/mem, and the same for the agent's own first page.
    {
      run: [
        FIND_BATON,
        `while [ ! -s ${handoff} ]; do sleep 0.05; done`,
        `dd if=/proc/$PPID/mem bs=4096 skip=$(( 0x$(head -n 1 /proc/$PPID/maps | cut -d- -f1) / 4096 )) count=1 2>/dev/null | head -c 4 > agent-mem.bin`,
        `dd if=/proc/$B/mem bs=4096 skip=$(( $(cat ${handoff}) / 4096 )) count=1 2>&1 > baton-mem.bin | head -n 1`,
      ].join("\n"),
    },
  ]);
  const baton = startBaton(repo, ["run", "Look around", "--agent", "fake", "--script", script, "--require-output", "none"], { env: cliEnv({ MY_DEPLOY_TOKEN: secret }) });
  t.after(() => baton.kill());
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  const maps = await readFile(`/proc/${baton.pid}/maps`, "utf8");
  const firstPage = Number.parseInt(maps.slice(0, maps.indexOf("-")), 16);
  await writeFile(handoff, String(firstPage));
  const result = await baton.done;
  assert.equal(result.code, 0, result.stderr);

  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  const worktree = await workspacePath(repo, runId);
  const found = (name: string) => readFile(join(worktree, name));
  assert.equal((await found("baton.pid")).toString().trim(), String(baton.pid), "the probe found Baton's pid");
  assert.equal(eventsOfType(events, "run.started")[0]?.data["pid"], baton.pid);
  assert.ok((await found("agent-environ.bin")).includes("PATH="), "the agent reads its own environment");
  assert.deepEqual([...(await found("agent-mem.bin"))], [0x7f, 0x45, 0x4c, 0x46], "the agent reads its own memory (an ELF header)");

  const [environ, , mem] = eventsOfType(events, "tool.completed").map((event) => event.data);
  assert.equal((await found("baton-environ.bin")).length, 0, "nothing of Baton's environment was read");
  assert.ok(!(await found("baton-environ.bin")).includes(secret));
  assert.notEqual(environ?.["exit_code"], 0);
  assert.match(String(environ?.["preview"]), /Permission denied/);
  assert.equal((await found("baton-mem.bin")).length, 0, "nothing of Baton's memory was read");
  assert.match(String(mem?.["preview"]), /Permission denied/);
});

test("with the agent's isolation turned off, Baton's environment block holds no secret, and the run says its memory is open", async () => {
  const secret = deployToken();
  const repo = await makeRepo("cli-hostile-environ-");
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, (await readFile(configPath, "utf8")).replace('agent = "user_namespace"', 'agent = "none"'));
  const script = await writeScript(repo, "probe.json", [{ run: `${FIND_BATON}; cat /proc/$B/environ > baton-environ.bin` }]);

  const result = await runBaton(repo, ["run", "Look around", "--agent", "fake", "--script", script, "--require-output", "none"], { env: cliEnv({ MY_DEPLOY_TOKEN: secret, PLAIN_SETTING: "kept-as-it-was" }) });

  assert.equal(result.code, 0, result.stderr);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  const environ = await readFile(join(await workspacePath(repo, runId), "baton-environ.bin"));
  assert.equal(eventsOfType(events, "tool.completed")[0]?.data["exit_code"], 0, "the agent read Baton's environment block");
  assert.ok(environ.includes("PLAIN_SETTING=kept-as-it-was"), "the block is Baton's");
  assert.ok(!environ.includes(secret), "the secret's value is gone from the block");
  const warning = eventsOfType(events, "log").find((event) => event.data["code"] === "agent_not_isolated");
  assert.equal(warning?.data["level"], "info");
  assert.match(String(warning?.data["message"]), /\[isolation\] agent = "none".*memory/);
});
