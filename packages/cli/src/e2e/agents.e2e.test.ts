import assert from "node:assert/strict";
import { appendFile, chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { AGENT_TREE_ENV, BASE_AGENT_ENV } from "@baton/engine";
import { fakeAgentBinPath } from "@baton/testkit/launch";
import { cliEnv, eventsOfType, linesOf, makeRepo, onlyRunId, readEvents, readTranscript, runBaton, runsDir, workspacePath, writeScript } from "./cli-harness.ts";

/** A TOML basic string (JSON's escapes are TOML's for the paths used here). */
const toml = (text: string) => JSON.stringify(text);

/** Adds `[agents.<name>]` tables (TOML lines) to the repository's config. */
async function addAgents(repo: string, lines: string[]): Promise<void> {
  await appendFile(join(repo, ".baton", "config.toml"), `\n${lines.join("\n")}\n`);
}

/** A config entry starting the real fake agent with extra arguments, taking `--model` as `model` says. */
function fakeEntry(name: string, model: string, args: string[] = []): string[] {
  return [
    `[agents.${name}]`,
    `command = ${toml(process.execPath)}`,
    `args = [${[fakeAgentBinPath, ...args].map(toml).join(", ")}]`,
    'script_arg = "--script"',
    `model = ${model}`,
  ];
}

async function runDirs(repo: string): Promise<string[]> {
  return readdir(runsDir(repo)).catch(() => []);
}

test("baton agents lists built-ins and configured agents: installed or not, version, how each starts", async () => {
  const repo = await makeRepo("cli-agents-");
  const cache = join(repo, ".agents-cache", "mine", "node_modules", ".bin");
  await mkdir(cache, { recursive: true });
  await writeFile(join(cache, "my-agent"), '#!/bin/sh\necho "my-agent 4.5.6"\n');
  await chmod(join(cache, "my-agent"), 0o755);
  await addAgents(repo, [
    "[agents.mine]",
    'command = "my-agent"',
    'args = ["--acp"]',
    'pass_env = ["MY_AGENT_*"]',
    'model = { via = "env", name = "MY_AGENT_MODEL" }',
    "[agents.ghost]",
    'command = "ghost-agent"',
    'package = "ghost-agent-pkg"',
  ]);
  const env = cliEnv({ PATH: "/usr/bin:/bin", BATON_AGENT_PATH: cache });

  const json = await runBaton(repo, ["agents", "--json"], { env });
  assert.equal(json.code, 0, json.stderr);
  const statuses = linesOf(json.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    statuses.map((s) => s["name"]),
    ["claude", "opencode", "codex", "gemini", "fake", "mine", "ghost"],
  );
  const byName = Object.fromEntries(statuses.map((s) => [s["name"], s]));
  assert.deepEqual(
    { installed: byName["mine"]?.["installed"], version: byName["mine"]?.["version"], path: byName["mine"]?.["path"], command: byName["mine"]?.["command"] },
    { installed: true, version: "4.5.6", path: join(cache, "my-agent"), command: ["my-agent", "--acp"] },
  );
  assert.deepEqual(byName["mine"]?.["env"], ["MY_AGENT_*", "MY_AGENT_MODEL"]);
  assert.deepEqual(byName["mine"]?.["model"], { via: "env", name: "MY_AGENT_MODEL" });
  assert.equal(byName["ghost"]?.["installed"], false);
  assert.equal(byName["ghost"]?.["package"], "ghost-agent-pkg");
  assert.equal(byName["fake"]?.["installed"], true);
  assert.equal(byName["fake"]?.["version"], "0.1.0");
  assert.deepEqual(byName["codex"]?.["model"], { via: "config_option", id: "model" });
  // What limits can hold for each: a cost or token budget needs the agent to report it.
  assert.deepEqual([byName["gemini"]?.["reports_cost"], byName["gemini"]?.["reports_tokens"]], [false, false]);
  assert.deepEqual([byName["claude"]?.["reports_cost"], byName["claude"]?.["reports_tokens"]], [true, true]);
  assert.deepEqual([byName["claude"]?.["token_reports"], byName["codex"]?.["token_reports"], byName["fake"]?.["token_reports"]], ["turn", "call", "call"]);

  const plain = await runBaton(repo, ["agents"], { env });
  assert.equal(plain.code, 0, plain.stderr);
  const lines = linesOf(plain.stdout);
  assert.match(lines[0] ?? "", /^AGENT +INSTALLED +VERSION +MODEL VIA +REPORTS +PROXY +COMMAND +ENV PASSED$/);
  const mine = lines.find((line) => line.startsWith("mine "));
  assert.match(mine ?? "", /^mine +yes +4\.5\.6 +env MY_AGENT_MODEL +tokens\/turn +- +my-agent --acp +MY_AGENT_\*,MY_AGENT_MODEL$/);
  // How each built-in reaches the inference proxy.
  const proxyOf = (agent: string) => (lines.find((line) => line.startsWith(`${agent} `)) ?? "").slice((lines[0] ?? "").indexOf("PROXY")).split("  ")[0]?.trim();
  assert.deepEqual(["claude", "gemini", "codex", "opencode", "fake"].map(proxyOf), ["anthropic ANTHROPIC_BASE_URL", "gemini GOOGLE_GEMINI_BASE_URL", "CODEX_CONFIG provider", "OPENCODE_CONFIG_CONTENT", "-"]);
  assert.deepEqual(byName["claude"]?.["proxy"], { via: "env", provider: "anthropic", base_url_env: "ANTHROPIC_BASE_URL", key_env: "ANTHROPIC_API_KEY" });
  // How far a token budget can overshoot, for each agent and why.
  const reports = (agent: string) => (lines.find((line) => line.startsWith(`${agent} `)) ?? "").slice((lines[0] ?? "").indexOf("REPORTS")).split(" ")[0];
  assert.deepEqual(["codex", "claude", "opencode", "gemini", "fake"].map(reports), ["tokens/call", "tokens/turn,cost", "tokens/turn,cost", "-", "tokens/call,cost"]);
  assert.ok(plain.stdout.includes("tokens/turn  it can be overshot by up to one whole turn (every model call in it), since the counts arrive when a turn ends"), plain.stdout);
  assert.ok(plain.stdout.includes("tokens/call  it can be overshot by about one model call, since the counts arrive after each call"), plain.stdout);
  // Columns line up: every row's INSTALLED starts where the header's does.
  const column = (lines[0] ?? "").indexOf("INSTALLED");
  for (const line of lines.slice(1, statuses.length + 1)) assert.match(line.slice(column), /^(yes|no) /, line);
  assert.ok(plain.stdout.includes("ghost: ghost-agent is not on the agent's PATH; install: npm install -g ghost-agent-pkg"));
});

test("a missing agent binary: exit 2, one line naming the npm package, and no run is created", async () => {
  const repo = await makeRepo("cli-agents-missing-");
  const result = await runBaton(repo, ["run", "Fix the bug", "--agent", "claude"], { env: cliEnv({ PATH: "/usr/bin:/bin" }) });
  assert.equal(result.code, 2);
  assert.equal(linesOf(result.stderr).length, 1, result.stderr);
  assert.match(result.stderr, /agent "claude" is not installed: claude-agent-acp is not on the agent's PATH/);
  assert.match(result.stderr, /npm install -g @agentclientprotocol\/claude-agent-acp/);
  assert.deepEqual(await runDirs(repo), []);
});

test("without --agent or --script, the config's default_agent runs, else a one-line error asks to choose", async () => {
  const repo = await makeRepo("cli-agents-default-");
  const none = await runBaton(repo, ["run", "Fix the bug"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^baton: no agent chosen: pass --agent NAME \(claude, opencode, codex, gemini, fake\) or set default_agent/);
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, `default_agent = "codex"\n${await readFile(configPath, "utf8")}`);
  const chosen = await runBaton(repo, ["run", "Fix the bug"], { env: cliEnv({ PATH: "/usr/bin:/bin" }) });
  assert.equal(chosen.code, 2);
  assert.match(chosen.stderr, /agent "codex" is not installed.*npm install -g @agentclientprotocol\/codex-acp/);
  assert.deepEqual(await runDirs(repo), []);
});

test("--model reaches the agent by config option, session model or environment, and agent.started records what it reports", async () => {
  const repo = await makeRepo("cli-agents-model-");
  await addAgents(repo, [...fakeEntry("by-env", '{ via = "env", name = "FAKE_AGENT_MODEL" }'), ...fakeEntry("by-session-model", '{ via = "session_model" }')]);
  const script = await writeScript(repo, "hello.json", [{ say: "Hello." }]);
  const cases = [
    { agent: "fake", model: "opt-model", method: "session/set_config_option" },
    { agent: "by-session-model", model: "provider/sm-model", method: "session/set_model" },
    { agent: "by-env", model: "env-model", method: undefined },
  ];
  for (const [index, { agent, model, method }] of cases.entries()) {
    const result = await runBaton(repo, ["run", "--agent", agent, "--script", script, "--model", model, "--json", "--require-output", "none"]);
    assert.equal(result.code, 0, `${agent}: ${result.stderr}`);
    const runId = (await readdir(runsDir(repo))).sort()[index] as string;
    const started = eventsOfType(await readEvents(repo, runId), "agent.started");
    assert.equal(started[0]?.data["model"], model, agent);
    const sent = (await readTranscript(repo, runId)).filter((r) => r.dir === "send").map((r) => (r.msg as { method?: string } | undefined)?.method);
    if (method !== undefined) assert.ok(sent.includes(method), `${agent} got ${method}: ${sent.join(", ")}`);
    else assert.ok(!sent.includes("session/set_config_option") && !sent.includes("session/set_model"), `${agent}: the model went by environment only`);
  }
  // Without --model the agent's own model is recorded.
  const plain = await runBaton(repo, ["run", "--script", script, "--json", "--require-output", "none"]);
  assert.equal(plain.code, 0, plain.stderr);
  const last = (await readdir(runsDir(repo))).sort().at(-1) as string;
  assert.equal(eventsOfType(await readEvents(repo, last), "agent.started")[0]?.data["model"], "fake-model");
});

test("an agent that reports another model than asked fails the run with model_mismatch before the prompt", async () => {
  const repo = await makeRepo("cli-agents-mismatch-");
  await addAgents(repo, fakeEntry("stubborn", '{ via = "config_option", id = "model" }', ["--fixed-model", "other-model"]));
  const script = await writeScript(repo, "hello.json", [{ write: { path: "touched.txt", content: "x" } }]);
  const result = await runBaton(repo, ["run", "--agent", "stubborn", "--script", script, "--model", "wanted-model"]);
  assert.equal(result.code, 1, result.stderr);
  const events = await readEvents(repo, await onlyRunId(repo));
  const failed = eventsOfType(events, "run.failed")[0];
  assert.equal((failed?.data["error"] as { code?: string }).code, "model_mismatch");
  assert.equal((failed?.data["error"] as { message?: string }).message, 'asked for model "wanted-model" but the agent reports model "other-model"');
  assert.equal(eventsOfType(events, "agent.started")[0]?.data["model"], "other-model");
  assert.deepEqual(eventsOfType(events, "turn.started"), [], "no prompt was sent");
  assert.deepEqual(eventsOfType(events, "tool.started"), []);
});

test("--model for an agent with no way to take it: exit 2 before a run exists", async () => {
  const repo = await makeRepo("cli-agents-nomodel-");
  await addAgents(repo, fakeEntry("plain", '{ via = "none" }'));
  const script = await writeScript(repo, "hello.json", [{ say: "Hello." }]);
  const result = await runBaton(repo, ["run", "--agent", "plain", "--script", script, "--model", "m"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^baton: agent "plain" offers no way to choose its model, but --model was given: /);
  assert.deepEqual(await runDirs(repo), []);
});

test("the agent's environment is built: a hostile inherited environment reaches it only through the names its entry passes", async () => {
  const repo = await makeRepo("cli-agents-env-");
  // Changes to the built-in fake entry: one pattern passed, one fixed value.
  await addAgents(repo, ["[agents.fake]", 'pass_env = ["MY_AGENT_*"]', 'env = { FIXED_FOR_AGENT = "1" }']);
  const script = await writeScript(repo, "env.json", [{ run: "env | cut -d= -f1 | sort > agent-env.txt" }]);
  const hostile = {
    OPENAI_API_KEY: "sk-hostile-openai",
    ANTHROPIC_API_KEY: "sk-ant-hostile",
    AWS_SECRET_ACCESS_KEY: "hostile-aws",
    BATON_SOMETHING: "hostile",
    BATON_AGENT_PATH: join(repo, "no-such-cache"),
    NODE_OPTIONS: "--max-old-space-size=512",
    MY_AGENT_TOKEN: "passed",
    MY_AGENTX: "not-passed",
  };
  const result = await runBaton(repo, ["run", "--script", script], { env: cliEnv(hostile) });
  assert.equal(result.code, 0, result.stderr);
  const names = linesOf(await readFile(join(await workspacePath(repo, await onlyRunId(repo)), "agent-env.txt"), "utf8"));
  // sh itself adds PWD, SHLVL, _ (and OLDPWD in some shells); Baton adds the tag of the agent's process tree.
  const allowed = new Set<string>([...BASE_AGENT_ENV, AGENT_TREE_ENV, "MY_AGENT_TOKEN", "FIXED_FOR_AGENT", "PWD", "SHLVL", "_", "OLDPWD"]);
  assert.deepEqual(names.filter((name) => !allowed.has(name)), []);
  assert.ok(names.includes("MY_AGENT_TOKEN"), "a name matching the entry's pattern arrives");
  assert.ok(names.includes("FIXED_FOR_AGENT"), "the entry's fixed value arrives");
  for (const name of Object.keys(hostile).filter((n) => n !== "MY_AGENT_TOKEN")) assert.ok(!names.includes(name), `${name} did not reach the agent`);
});

test("an entry's session_mode is set after session/new; a mode the agent does not offer fails the run before the prompt", async () => {
  const repo = await makeRepo("cli-agents-mode-");
  await addAgents(repo, [...fakeEntry("asks", '{ via = "none" }'), 'session_mode = "default"', ...fakeEntry("yolo", '{ via = "none" }'), 'session_mode = "yolo"']);
  const script = await writeScript(repo, "hello.json", [{ say: "Hello." }]);

  const asks = await runBaton(repo, ["run", "--agent", "asks", "--script", script, "--require-output", "none"]);
  assert.equal(asks.code, 0, asks.stderr);
  const sent = (await readTranscript(repo, await onlyRunId(repo))).filter((r) => r.dir === "send").map((r) => r.msg as { method?: string; params?: { modeId?: string } });
  assert.deepEqual(sent.find((m) => m.method === "session/set_mode")?.params?.modeId, "default");

  const yolo = await runBaton(repo, ["run", "--agent", "yolo", "--script", script]);
  assert.equal(yolo.code, 1, yolo.stderr);
  const runId = (await readdir(runsDir(repo))).sort()[1] as string;
  const events = await readEvents(repo, runId);
  assert.deepEqual(eventsOfType(events, "run.failed")[0]?.data["error"], {
    code: "session_mode_unsupported",
    message: 'the agent offers no session mode "yolo" (it offers auto, default)',
  });
  assert.deepEqual(eventsOfType(events, "turn.started"), []);
});
