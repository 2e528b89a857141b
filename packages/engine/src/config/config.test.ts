import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../errors.ts";
import { DEFAULT_CONFIG_TEXT, parseConfig } from "./config.ts";

test("the config that init writes parses to the defaults", () => {
  const config = parseConfig(DEFAULT_CONFIG_TEXT, "config.toml");
  assert.deepEqual(config, parseConfig("", "empty.toml"));
  assert.deepEqual(config.session, { cancel_grace_ms: 5000 });
  assert.deepEqual(config.permissions, { rules: [], builtin_rules: true, ask_timeout: 600_000 });
  assert.deepEqual(config.input, { max_chars: 4_000, max_queued: 10 });
  assert.deepEqual(config.workspace, { mode: "worktree" });
  assert.deepEqual(config.isolation, { agent: "user_namespace" });
  assert.deepEqual(config.trace, { max_output_chars: 100_000 });
});

test("workspace mode, trace cap and the built-in permission rules are read and checked", () => {
  const config = parseConfig('[workspace]\nmode = "in_place"\n[trace]\nmax_output_chars = 5000\n[permissions]\nbuiltin_rules = false\n', "c.toml");
  assert.equal(config.workspace.mode, "in_place");
  assert.equal(config.trace.max_output_chars, 5000);
  assert.equal(config.permissions.builtin_rules, false);
  assert.throws(() => parseConfig('[workspace]\nmode = "elsewhere"\n', "c.toml"), /c\.toml: workspace\.mode/);
  assert.throws(() => parseConfig("[trace]\nmax_output_chars = 10\n", "c.toml"), /c\.toml: trace\.max_output_chars/);
});

test("permission rules are read", () => {
  const config = parseConfig('[[permissions.rules]]\nname = "no-push"\naction = "deny"\nkind = "execute"\npattern = "git push*"\n', "c.toml");
  assert.deepEqual(config.permissions.rules, [{ name: "no-push", action: "deny", kind: "execute", pattern: "git push*" }]);
});

test("bad TOML and unknown or mistyped keys are one clear error naming the file and key", () => {
  for (const [text, expected] of [
    ["[session\n", /^c\.toml:1:9: not valid TOML: illegal character in key$/],
    ["[session]\ncancel_grace = 5\n", /c\.toml: session: Unrecognized key/i],
    ['[session]\ncancel_grace_ms = "soon"\n', /c\.toml: session\.cancel_grace_ms/],
    ['[[permissions.rules]]\nname = "x"\naction = "maybe"\n', /permissions\.rules\.0\.action/],
  ] as const) {
    assert.throws(
      () => parseConfig(text, "c.toml"),
      (error: unknown) => isBatonError(error) && error.code === "bad_config" && expected.test(error.message),
    );
  }
});

test("a TOML syntax error names the file, line and column, and what is wrong there", () => {
  const text = '[session]\ncancel_grace_ms = 5000\n\n[limits]\ntimeout = = "5m"\n';
  assert.throws(
    () => parseConfig(text, "/repo/.baton/config.toml"),
    (error: unknown) => isBatonError(error) && error.toLine() === "/repo/.baton/config.toml:5:11: not valid TOML: invalid value: fix the file or remove it to use the defaults",
  );
});

test("limit values in config have the command line's bounds: max_repeats 2 to 100, counts exact, a timeout a timer can wait", () => {
  for (const [text, expected] of [
    ["[limits]\nmax_repeats = 101\n", /limits\.max_repeats: Too big/],
    ["[limits]\nmax_repeats = 1\n", /limits\.max_repeats: Too small/],
    ["[limits]\nmax_tokens = 1e300\n", /limits\.max_tokens: Too big/],
    ["[limits]\nmax_tool_calls = 1.5\n", /limits\.max_tool_calls: /],
    ["[limits]\nmax_cost_usd = inf\n", /limits\.max_cost_usd: /],
    ['[limits]\ntimeout = "597h"\n', /limits\.timeout: "597h" is longer than 596h31m23s/],
    ['[limits]\ntimeout = "0s"\n', /limits\.timeout: "0s" is no time at all/],
    ['[retry]\noverloaded = ["10s", "400h"]\n', /retry\.overloaded\.1: "400h" is longer than 298h15m41s/],
    ['[retry]\nmax_retry_after = "400h"\n', /retry\.max_retry_after: "400h" is longer than/],
  ] as const) {
    assert.throws(
      () => parseConfig(text, "c.toml"),
      (error: unknown) => isBatonError(error) && error.code === "bad_config" && expected.test(error.message),
      text,
    );
  }
  assert.equal(parseConfig("[limits]\nmax_repeats = 100\n", "c.toml").limits.max_repeats, 100);
});
