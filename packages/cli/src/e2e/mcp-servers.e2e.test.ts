import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, runsDir } from "./cli-harness.ts";
import { ofType, runScripted } from "./reliability-harness.ts";

const SECRET = "mcp-header-secret-value-93c1";

test("[[mcp.servers]] reach session/new as the agent's capabilities allow: the stdio server passed and recorded, the HTTP one a warning; secrets redacted", async () => {
  const config = `
[[mcp.servers]]
name = "local"
command = "/bin/true"
args = ["--stdio"]
env = { LOCAL_TOKEN = "${SECRET}-env" }

[[mcp.servers]]
name = "remote"
url = "https://mcp.example.invalid/mcp"
headers = { Authorization = "Bearer ${SECRET}" }
`;
  const run = await runScripted("mcp", { turns: [[{ write: { path: "a.txt", content: "a\n" } }]] }, { config, env: cliEnv() });
  assert.equal(run.code, 0, run.stderr);
  const started = ofType(run.events, "agent.started")[0];
  assert.deepEqual(started?.["mcp_servers"], ["local"]);
  const warned = ofType(run.events, "log").filter((l) => l["code"] === "mcp_server_skipped");
  assert.equal(warned.length, 1);
  assert.match(String(warned[0]?.["message"]), /"remote".*mcpCapabilities\.http/);
  const dir = join(runsDir(run.repo), (await readdir(runsDir(run.repo)))[0] ?? "");
  const transcript = await readFile(join(dir, "acp.jsonl"), "utf8");
  assert.match(transcript, /"mcpServers":\[\{"name":"local","command":"\/bin\/true","args":\["--stdio"\],"env":\[\{"name":"LOCAL_TOKEN","value":"\[REDACTED\]"\}\]\}\]/);
  assert.ok(!transcript.includes(SECRET) && !JSON.stringify(run.events).includes(SECRET));
});

test("a bad [[mcp.servers]] entry is one line naming the key", async () => {
  const run = await runScripted("mcp-bad", { turns: [[{ say: "hi" }]] }, { config: `[[mcp.servers]]\nname = "x"\ncommand = "relative-cmd"\n`, env: cliEnv() });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /mcp\.servers\.0/);
});
