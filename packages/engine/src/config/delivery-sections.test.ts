import assert from "node:assert/strict";
import { test } from "node:test";
import { BatonError } from "../errors.ts";
import { parseConfig } from "./config.ts";
import { setupSteps } from "./setup-config.ts";

test("the delivery sections default to nothing to do: no setup, no validation, no artifacts, manual delivery", () => {
  const config = parseConfig("", "config.toml");
  assert.deepEqual(config.setup.commands, []);
  assert.deepEqual(config.validation, { commands: [], timeout: 600_000, max_fix_rounds: 2 });
  assert.deepEqual(config.artifacts.include, []);
  assert.deepEqual(config.delivery, { mode: "manual", strategy: "merge", remote: "origin", draft: false, github_api_url: "https://api.github.com" });
  const pr = parseConfig(`[delivery]\nmode = "pull_request"\nremote = "upstream"\ndraft = true\ngithub_api_url = "https://ghe.example/api/v3"\ngithub_repo = "acme/app"\n`, "config.toml");
  assert.deepEqual(pr.delivery, { mode: "pull_request", strategy: "merge", remote: "upstream", draft: true, github_api_url: "https://ghe.example/api/v3", github_repo: "acme/app" });
});

test("setup commands come first, then [[setup.steps]], each with its timeout", () => {
  const config = parseConfig(`[setup]\ncommands = ["npm ci"]\ntimeout = "2m"\n[[setup.steps]]\nname = "build"\ncommand = "npm run build"\ntimeout = "30s"\n`, "config.toml");
  assert.deepEqual(setupSteps(config.setup), [
    { command: "npm ci", timeoutMs: 120_000 },
    { name: "build", command: "npm run build", timeoutMs: 30_000 },
  ]);
});

test("bad delivery settings name the key", () => {
  const bad = [
    ["[validation]\nmax_fix_rounds = 21", "validation.max_fix_rounds"],
    ["[validation]\ncommands = [\"  \"]", "validation.commands.0"],
    ["[setup]\ntimeout = \"soon\"", "setup.timeout"],
    ["[[setup.steps]]\nname = \"x\"", "setup.steps.0.command"],
    ["[delivery]\nstrategy = \"rebase\"", "delivery.strategy"],
    ["[delivery]\nmode = \"pr\"", "delivery.mode"],
    ["[artifacts]\ninclude = \"*.png\"", "artifacts.include"],
    ["[delivery]\ngithub_repo = \"app\"", "delivery.github_repo"],
    ["[delivery]\ngithub_api_url = \"ftp://x\"", "delivery.github_api_url"],
    ["[delivery]\nremote = \"\"", "delivery.remote"],
  ] as const;
  for (const [text, key] of bad) {
    assert.throws(() => parseConfig(text, "config.toml"), (error: unknown) => error instanceof BatonError && error.message.includes(`config.toml: ${key}:`), text);
  }
});
