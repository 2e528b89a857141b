import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig } from "./config.ts";

test("ask_timeout is a duration, 10 minutes by default, or none", () => {
  assert.equal(parseConfig("", "c.toml").permissions.ask_timeout, 600_000);
  assert.equal(parseConfig('[permissions]\nask_timeout = "90s"\n', "c.toml").permissions.ask_timeout, 90_000);
  assert.equal(parseConfig('[permissions]\nask_timeout = "none"\n', "c.toml").permissions.ask_timeout, undefined);
  assert.throws(() => parseConfig('[permissions]\nask_timeout = "soon"\n', "c.toml"), /c\.toml: permissions\.ask_timeout/);
  assert.throws(() => parseConfig("[permissions]\nask_timeout = 0\n", "c.toml"), /permissions\.ask_timeout: .*no time at all/);
});

test("an ask rule is read; input limits are read and bounded", () => {
  const config = parseConfig('[[permissions.rules]]\nname = "ask-run"\naction = "ask"\nkind = "execute"\n[input]\nmax_chars = 200\nmax_queued = 2\n', "c.toml");
  assert.deepEqual(config.permissions.rules, [{ name: "ask-run", action: "ask", kind: "execute" }]);
  assert.deepEqual(config.input, { max_chars: 200, max_queued: 2 });
  assert.throws(() => parseConfig("[input]\nmax_chars = 0\n", "c.toml"), /c\.toml: input\.max_chars/);
  assert.throws(() => parseConfig("[input]\nmax_queued = 5000\n", "c.toml"), /c\.toml: input\.max_queued/);
  assert.throws(() => parseConfig("[input]\nmax_len = 3\n", "c.toml"), /c\.toml: input/);
});
