import assert from "node:assert/strict";
import { test } from "node:test";
import { buildAgentEnv, envMatcher } from "./agent-env.ts";

/** What a developer's or CI's environment typically holds that no agent should see. */
const HOSTILE = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/dev",
  LANG: "C.UTF-8",
  OPENAI_API_KEY: "sk-openai",
  ANTHROPIC_API_KEY: "sk-ant",
  AWS_SECRET_ACCESS_KEY: "aws",
  GITHUB_TOKEN: "ghp",
  BATON_AGENT_PATH: "/cache/claude/node_modules/.bin",
  BATON_TEST_ROOT: "/tmp/x",
  NODE_OPTIONS: "--require /tmp/evil.js",
  CLAUDE_CODE_USE_BEDROCK: "1",
  CLAUDE_CONFIG_DIR: "/home/dev/.claude",
  CLAUDEX: "no",
};

test("an agent gets the base variables and the names its entry passes, and nothing else", () => {
  const env = buildAgentEnv(HOSTILE, ["ANTHROPIC_API_KEY", "CLAUDE_CODE_*", "CLAUDE_CONFIG_DIR"], { DISABLE_AUTOUPDATER: "1" });
  assert.deepEqual(env, {
    PATH: "/cache/claude/node_modules/.bin:/usr/bin:/bin",
    HOME: "/home/dev",
    LANG: "C.UTF-8",
    ANTHROPIC_API_KEY: "sk-ant",
    CLAUDE_CODE_USE_BEDROCK: "1",
    CLAUDE_CONFIG_DIR: "/home/dev/.claude",
    DISABLE_AUTOUPDATER: "1",
  });
});

test("with no pass list only the base variables arrive; fixed values win over inherited ones", () => {
  const env = buildAgentEnv({ ...HOSTILE, BATON_AGENT_PATH: undefined, GEMINI_CLI_NO_RELAUNCH: "0" }, [], { GEMINI_CLI_NO_RELAUNCH: "1" });
  assert.deepEqual(Object.keys(env).sort(), ["GEMINI_CLI_NO_RELAUNCH", "HOME", "LANG", "PATH"]);
  assert.equal(env["GEMINI_CLI_NO_RELAUNCH"], "1");
  assert.equal(env["PATH"], "/usr/bin:/bin");
});

test("* in a pass name matches any text, and only that", () => {
  const matches = envMatcher("CLAUDE_CODE_*");
  assert.ok(matches("CLAUDE_CODE_"));
  assert.ok(matches("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"));
  assert.ok(!matches("CLAUDE_CODEX"));
  assert.ok(!matches("XCLAUDE_CODE_A"));
  assert.ok(envMatcher("A*B")("AxyzB"));
  assert.ok(!envMatcher("A.B")("AxB"), "a dot is literal");
  assert.ok(envMatcher("OPENAI_API_KEY")("OPENAI_API_KEY"));
  assert.ok(!envMatcher("OPENAI_API_KEY")("OPENAI_API_KEY_2"));
});
