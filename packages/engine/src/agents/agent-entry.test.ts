import assert from "node:assert/strict";
import { test } from "node:test";
import { fakeAgentEntry } from "@baton/testkit/launch";
import { parseConfig } from "../config/config.ts";
import { isBatonError } from "../errors.ts";
import { agentEntrySchema } from "./agent-entry.ts";
import { BUILTIN_AGENTS } from "./builtin-agents.ts";

test("every built-in agent, and the fake agent, is a valid registry entry", () => {
  for (const [name, entry] of Object.entries({ ...BUILTIN_AGENTS, fake: fakeAgentEntry })) {
    const parsed = agentEntrySchema.safeParse(entry);
    assert.ok(parsed.success, `${name}: ${parsed.error?.issues[0]?.message}`);
  }
});

test("the built-ins start as REAL-AGENTS.md measured, and name the npm package to install", () => {
  const commands = Object.fromEntries(Object.entries(BUILTIN_AGENTS).map(([name, e]) => [name, [e.command, ...("args" in e ? e.args : [])].join(" ")]));
  assert.deepEqual(commands, { claude: "claude-agent-acp", opencode: "opencode acp --pure", codex: "codex-acp", gemini: "gemini --acp" });
  assert.deepEqual(
    Object.values(BUILTIN_AGENTS).map((e) => e.package),
    ["@agentclientprotocol/claude-agent-acp", "opencode-ai", "@agentclientprotocol/codex-acp", "@google/gemini-cli"],
  );
  assert.equal(BUILTIN_AGENTS.gemini.no_client_fs, true);
  assert.equal(BUILTIN_AGENTS.claude.session_mode, "default");
});

test("defaults fill what an entry leaves out", () => {
  const entry = agentEntrySchema.parse({ command: "my-agent" });
  assert.deepEqual(entry, { command: "my-agent", args: [], pass_env: [], env: {}, model: { via: "none" }, proxy: { via: "none" }, no_client_fs: false, version_args: ["--version"], notices: false, reports_cost: false, reports_tokens: true, token_reports: "turn", provider_error_prefixes: [] });
  assert.deepEqual(agentEntrySchema.parse({ command: "a", model: { via: "config_option" } }).model, { via: "config_option", id: "model" });
});

test("[agents.<name>] tables are read from config, and bad ones are one error naming the key", () => {
  const config = parseConfig(
    ['default_agent = "mine"', "[agents.mine]", 'command = "my-agent"', 'pass_env = ["MY_*"]', 'model = { via = "env", name = "MY_MODEL" }', "[agents.claude]", "no_client_fs = true"].join("\n"),
    "c.toml",
  );
  assert.equal(config.default_agent, "mine");
  assert.deepEqual(config.agents?.["mine"], { command: "my-agent", pass_env: ["MY_*"], model: { via: "env", name: "MY_MODEL" } });
  assert.deepEqual(config.agents?.["claude"], { no_client_fs: true });
  for (const [text, expected] of [
    ['[agents.mine]\ncommand = "x"\nmodel = { via = "carrier-pigeon" }\n', /agents\.mine\.model/],
    ['[agents.mine]\ncommand = "x"\npass_env = ["NOT-A-NAME"]\n', /agents\.mine\.pass_env\.0: must be an environment variable name/],
    ['[agents.mine]\ncommand = "x"\nflavour = "mint"\n', /agents\.mine: Unrecognized key/i],
    ['[agents.Mine]\ncommand = "x"\n', /agents/],
  ] as const) {
    assert.throws(
      () => parseConfig(text, "c.toml"),
      (error: unknown) => isBatonError(error) && error.code === "bad_config" && expected.test(error.message),
      text,
    );
  }
});
