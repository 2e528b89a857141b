import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig } from "../config/config.ts";

test("[sandbox] is off by default; kind, home and extra paths are read, bad ones refused naming the field", () => {
  assert.deepEqual(parseConfig("", "c.toml").sandbox, { kind: "none", read_only: [], writable: [] });
  const on = parseConfig('[sandbox]\nkind = "bwrap"\nhome = "/srv/agent-home"\nread_only = ["/opt/tool"]\nwritable = ["/var/cache/tool"]\n', "c.toml").sandbox;
  assert.deepEqual(on, { kind: "bwrap", home: "/srv/agent-home", read_only: ["/opt/tool"], writable: ["/var/cache/tool"] });
  assert.throws(() => parseConfig('[sandbox]\nkind = "docker"\n', "c.toml"), /c\.toml: sandbox\.kind/);
  assert.throws(() => parseConfig('[sandbox]\nread_only = ["relative/path"]\n', "c.toml"), /c\.toml: sandbox\.read_only.*absolute path/);
});
