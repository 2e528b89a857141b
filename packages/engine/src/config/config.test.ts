import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../errors.ts";
import { DEFAULT_CONFIG_TEXT, parseConfig } from "./config.ts";

test("the config that init writes parses to the defaults", () => {
  const config = parseConfig(DEFAULT_CONFIG_TEXT, "config.toml");
  assert.deepEqual(config, parseConfig("", "empty.toml"));
  assert.deepEqual(config.session, { cancel_grace_ms: 5000 });
  assert.deepEqual(config.permissions, { rules: [], builtin_rules: true });
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
    ["[session\n", /c\.toml is not valid TOML/],
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
