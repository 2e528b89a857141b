// The fake agent in bubblewrap's sandbox (`[sandbox] kind = "bwrap"`), played as a user meets it:
// `baton run` with a script whose commands try to leave the sandbox. Its worktree and its home
// are writable; a file outside them cannot be read, a folder outside the worktree cannot be
// written, a loopback server outside answers nothing; the inference proxy is reached, through
// the relay in the sandbox; no process of the agent's is left after the run.
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { prepareSandbox } from "@baton/engine/sandbox";
import { testTempDir } from "@baton/protocol/testing";
import { ModelTwin } from "@baton/testkit/model-twin";
import { cliEnv, eventsOfType, makeRepo, onlyRunId, readEvents, runBaton, workspacePath, writeScript } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

/** Why this machine cannot make the sandbox (no bwrap, no user namespaces), if it cannot. */
const noSandbox = await prepareSandbox({ kind: "bwrap", read_only: [], writable: [] }, { env: process.env, projectRoot: "/", batonDir: "/nonexistent" }).then(
  () => undefined,
  (error: Error) => error.message,
);

const REAL_KEY = "sk-upstream-real-key-for-the-sandbox-test-7";

/** Every process whose environment names the run (the agent's tree tag): none may be left. */
async function processesOfRun(runId: string): Promise<number[]> {
  const { readdir } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, "utf8").catch(() => "");
    if (environ.includes(runId)) pids.push(Number(entry));
  }
  return pids;
}

async function sandboxedRepo(prefix: string, extra = ""): Promise<string> {
  const repo = await makeRepo(prefix);
  const configPath = join(repo, ".baton", "config.toml");
  const config = await readFile(configPath, "utf8");
  assert.match(config, /\[sandbox\]\n(#.*\n)*kind = "none"/, "baton init writes [sandbox]");
  await writeFile(configPath, config.replace(/(\[sandbox\]\n(?:#.*\n)*)kind = "none"/, '$1kind = "bwrap"') + extra);
  return repo;
}

test("in the sandbox the agent writes its worktree and its home, and cannot read outside them, write outside the worktree, or reach a loopback server", { skip: noSandbox }, async (t) => {
  const outside = await testTempDir("cli-sandbox-outside-");
  await writeFile(join(outside, "secret.txt"), "outside-secret-text\n");
  const server = createServer((socket) => socket.end("hello from outside\n"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  t.after(() => server.close());
  const port = (server.address() as AddressInfo).port;
  let connections = 0;
  server.on("connection", () => (connections += 1));

  const repo = await sandboxedRepo("cli-sandbox-fs-");
  const script = await writeScript(repo, "escape.json", [
    { write: { path: "inside.txt", content: "written in the worktree\n" } },
    { run: 'echo home > "$HOME/in-home.txt" && cat "$HOME/in-home.txt"' },
    { run: `cat ${outside}/secret.txt` },
    { run: `echo escaped > ${outside}/written.txt` },
    { run: `echo escaped > ${repo}/outside-worktree.txt` },
    { run: `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}; cat <&3'` },
    { run: "ls /root /work /home 2>&1; echo listed" },
  ]);

  const result = await runBaton(repo, ["run", "Try to leave", "--agent", "fake", "--script", script], { env: cliEnv() });

  assert.equal(result.code, 0, result.stderr);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  const worktree = await workspacePath(repo, runId);
  assert.equal(await readFile(join(worktree, "inside.txt"), "utf8"), "written in the worktree\n");
  const sandboxed = eventsOfType(events, "log").find((event) => event.data["code"] === "agent_sandboxed");
  assert.ok(sandboxed !== undefined, "the run says the agent is sandboxed");
  const [, home, read, writeOutside, writeRepo, connect, listed] = eventsOfType(events, "tool.completed").map((event) => event.data);
  assert.equal(home?.["exit_code"], 0, String(home?.["preview"]));
  assert.match(String(home?.["preview"]), /home/);
  assert.notEqual(read?.["exit_code"], 0, "a file outside the worktree and home is not there");
  assert.doesNotMatch(String(read?.["preview"]), /outside-secret-text/);
  assert.notEqual(writeOutside?.["exit_code"], 0, "a folder outside cannot be written");
  assert.notEqual(writeRepo?.["exit_code"], 0, "the repository outside the worktree cannot be written");
  await assert.rejects(readFile(join(outside, "written.txt")), /ENOENT/);
  await assert.rejects(readFile(join(repo, "outside-worktree.txt")), /ENOENT/);
  assert.notEqual(connect?.["exit_code"], 0, "the loopback server outside is not reachable");
  assert.doesNotMatch(String(connect?.["preview"]), /hello from outside/);
  assert.equal(connections, 0, "no connection reached the server outside");
  assert.match(String(listed?.["preview"]), /No such file or directory[\s\S]*listed/, "the user's folders are absent");
  // The private home is Baton's folder for the agent, not the user's.
  assert.equal(await readFile(join(repo, ".baton", "sandbox", "home", "fake", "in-home.txt"), "utf8"), "home\n");
  assert.deepEqual(await processesOfRun(runId), [], "no process of the agent's is left");
});

test("in the sandbox the agent reaches its model through the proxy's relay, with the run token", { skip: noSandbox }, async () => {
  await using twin = await ModelTwin.start({ scenario: "text" });
  const repo = await sandboxedRepo(
    "cli-sandbox-proxy-",
    `
[proxy.anthropic]
base_url = "${twin.url}"
key_env = "UPSTREAM_TEST_KEY"

[agents.fake]
proxy = { via = "env", provider = "anthropic", base_url_env = "ANTHROPIC_BASE_URL", key_env = "ANTHROPIC_API_KEY" }
`,
  );
  const script = await writeScript(repo, "calls.json", [{ model_call: {} }, { model_call: { parallel: 2 } }, { write: { path: "done.txt", content: "ok\n" } }]);

  const result = await runBaton(repo, ["run", "Call the model", "--agent", "fake", "--script", script], { env: cliEnv({ UPSTREAM_TEST_KEY: REAL_KEY }) });

  assert.equal(result.code, 0, result.stderr);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  const calls = eventsOfType(events, "model.request.completed");
  assert.equal(calls.length, 3);
  assert.ok(calls.every((call) => call.data["status"] === 200), JSON.stringify(calls.map((call) => call.data)));
  assert.equal(twin.requests.filter((request) => request.api !== null).length, 3, "the twin counts what Baton counts");
  assert.deepEqual(await processesOfRun(runId), [], "no process of the agent's (the relay included) is left");
});

test("a sandbox that cannot be made is refused before the run starts, naming the fix", async () => {
  const repo = await sandboxedRepo("cli-sandbox-missing-", "");
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, (await readFile(configPath, "utf8")).replace('kind = "bwrap"', 'kind = "bwrap"\nbwrap = "/nonexistent/bwrap"'));
  const script = await writeScript(repo, "noop.json", [{ say: "never" }]);

  const result = await runBaton(repo, ["run", "Anything", "--agent", "fake", "--script", script], { env: cliEnv() });

  assert.equal(result.code, 2);
  assert.match(result.stderr, /bubblewrap.*apt install bubblewrap.*kind = "none"/);
  assert.equal(result.stderr.trim().split("\n").length, 1, "one line");
  const { readdir } = await import("node:fs/promises");
  assert.deepEqual(await readdir(join(repo, ".baton", "runs")).catch(() => []), [], "no run was made");
});

test("a workflow's agent stages run in the sandbox too: the stage writes its worktree, a write beside it fails", { skip: noSandbox }, async () => {
  const workflow = `digraph boxed {
    start [shape=Mdiamond]
    work [prompt="Write it"]
    exit [shape=Msquare]
    start -> work -> exit
  }`;
  const { repo, script } = await workflowProject("boxed", workflow, { work: [{ write: { path: "stage.txt", content: "from the stage\n" } }, { run: "echo escaped > ../beside.txt" }] }, "cli-sandbox-wf-");
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, (await readFile(configPath, "utf8")).replace(/(\[sandbox\]\n(?:#.*\n)*)kind = "none"/, '$1kind = "bwrap"'));

  const result = await runBaton(repo, ["run", "Write it", "--workflow", "boxed", "--script", script, "--yes", "--timeout", "5m"], { env: cliEnv() });

  assert.equal(result.code, 0, result.stderr + result.stdout);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  assertWellClosed(events);
  assert.ok(eventsOfType(events, "log").some((event) => event.data["code"] === "agent_sandboxed"), "the stage's agent is sandboxed");
  const worktree = await workspacePath(repo, runId);
  assert.equal(await readFile(join(worktree, "stage.txt"), "utf8"), "from the stage\n");
  const [written, beside] = eventsOfType(events, "tool.completed").map((event) => event.data);
  assert.equal(written?.["exit_code"] ?? 0, 0);
  assert.ok(beside !== undefined && typeof beside["exit_code"] === "number", "the command step ran");
  assert.notEqual(beside["exit_code"], 0, "a write beside the worktree fails");
  await assert.rejects(readFile(join(worktree, "..", "beside.txt")), /ENOENT/);
});
