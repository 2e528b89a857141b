// The fake agent through Baton's inference proxy, with the model twin as the upstream: the agent
// holds a run token, never the key; every model call is counted and priced; caps and budgets are
// admitted at the proxy, before the upstream.
import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ModelTwin } from "@baton/testkit/model-twin";
import { cliEnv, runsDir } from "./cli-harness.ts";
import { finalEvent, ofType, runScripted } from "./reliability-harness.ts";

const REAL_KEY = "sk-upstream-real-key-for-the-proxy-test-42";

/** `.baton/config.toml`: the twin as Anthropic's upstream (its key from a variable only Baton reads), the fake agent pointed at the proxy. */
function proxyConfig(twin: ModelTwin): string {
  return `
[proxy.anthropic]
base_url = "${twin.url}"
key_env = "UPSTREAM_TEST_KEY"

[agents.fake]
proxy = { via = "env", provider = "anthropic", base_url_env = "ANTHROPIC_BASE_URL", key_env = "ANTHROPIC_API_KEY" }
`;
}

const env = () => cliEnv({ UPSTREAM_TEST_KEY: REAL_KEY, ANTHROPIC_API_KEY: "sk-ant-user-key-that-must-not-reach-the-agent" });

/** The fake agent's `model_call` body, as model-call-step.ts writes it. */
const CALL_BODY = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 256, stream: true, messages: [{ role: "user", content: "Say hello." }] });

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if ((await stat(path)).isFile()) out.push(path);
  }
  return out;
}

function modelCalls(twin: ModelTwin) {
  return twin.requests.filter((r) => r.api !== null);
}

describe("the fake agent through the inference proxy", () => {
  test("model calls go through the proxy with a run token: counted as the twin counts them, priced, and no key or token in the agent's environment or the run's files", async () => {
    await using twin = await ModelTwin.start({ scenario: "text" });
    const check = `env | grep -q -e '${REAL_KEY}' -e 'sk-ant-user-key' && echo KEY_LEAKED || echo NO_KEY_OK; case "$ANTHROPIC_API_KEY" in baton-run-*) echo TOKEN_OK;; esac; echo "$ANTHROPIC_BASE_URL" | grep -q '^http://127.0.0.1:[0-9]*/anthropic$' && echo PROXIED_OK`;
    const run = await runScripted("proxy-calls", { turns: [[{ model_call: {} }, { model_call: { parallel: 3 } }, { run: check }, { write: { path: "done.txt", content: "ok\n" } }]] }, { config: proxyConfig(twin), env: env() });
    assert.equal(run.code, 0, run.stderr);
    const output = ofType(run.events, "tool.completed").map((t) => JSON.stringify(t)).join("\n");
    assert.match(output, /NO_KEY_OK/);
    assert.doesNotMatch(output, /KEY_LEAKED/);
    assert.match(output, /TOKEN_OK/);
    assert.match(output, /PROXIED_OK/);
    const completed = ofType(run.events, "model.request.completed");
    assert.equal(completed.length, 4);
    assert.equal(modelCalls(twin).length, completed.length, "Baton's count is the twin's");
    for (const call of completed) {
      assert.deepEqual([call["provider"], call["api"], call["status"], call["cost_source"], call["usage_reported"]], ["anthropic", "anthropic_messages", 200, "table", true]);
      assert.ok((call["input_tokens"] as number) > 0 && (call["cost_usd"] as number) > 0);
    }
    const dir = join(runsDir(run.repo), (await readdir(runsDir(run.repo)))[0] ?? "");
    for (const file of await filesUnder(dir)) {
      const text = await readFile(file, "utf8");
      assert.ok(!text.includes(REAL_KEY), `the real key is in ${file}`);
      assert.ok(!/baton-run-[A-Za-z0-9_-]{8}/.test(text), `a run token is in ${file}`);
    }
  });

  test("--max-requests 2: the third request is refused with a 403 before the twin, the session cancelled, the run stopped by requests (exit 3)", async () => {
    await using twin = await ModelTwin.start({ scenario: "text" });
    const run = await runScripted(
      "proxy-cap",
      { turns: [[{ write: { path: "a.txt", content: "a\n" } }, { model_call: {} }, { sleep: 60_000 }], [{ model_call: {} }, { model_call: {} }, { say: "not reached" }]] },
      { config: proxyConfig(twin), env: env(), args: ["--max-requests", "2"] },
    );
    assert.equal(run.code, 3, run.stderr);
    assert.equal(modelCalls(twin).length, 2);
    assert.equal(ofType(run.events, "model.request.completed").length, 2);
    assert.deepEqual(ofType(run.events, "model.request.refused").map((r) => [r["limit"], r["status"]]), [["requests", 403]]);
    const end = finalEvent(run.events);
    assert.deepEqual([end?.type, end?.data["stopped_by"]], ["run.completed", "requests"]);
  });

  test("8 parallel streamed requests with 1.5 requests of token budget: two reach the twin, the others are refused, the run stops by tokens", async () => {
    await using twin = await ModelTwin.start({ scenario: { name: "text", fault: { kind: "slow", delayMs: 200, on: "any" } } });
    const reservation = Math.ceil(CALL_BODY.length / 4) + 256;
    const run = await runScripted(
      "proxy-parallel",
      { turns: [[{ write: { path: "a.txt", content: "a\n" } }, { model_call: { parallel: 8 } }, { sleep: 60_000 }], [{ say: "handing back" }]] },
      { config: proxyConfig(twin), env: env(), args: ["--max-tokens", String(Math.floor(reservation * 1.5))] },
    );
    assert.equal(run.code, 3, run.stderr);
    assert.equal(modelCalls(twin).length, 2);
    // The first refusal stops the run, and the agent's cancel aborts the requests it has not
    // sent yet: on a loaded machine some of the eight never reach the proxy. Every one that does
    // past the two is refused (inference-proxy.int.test.ts pins the proxy's answers: 2 × 200, 6 × 403).
    const refused = ofType(run.events, "model.request.refused");
    assert.ok(refused.length >= 1 && refused.length <= 6, `${refused.length} refused`);
    assert.deepEqual([...new Set(refused.map((event) => event["limit"]))], ["tokens"]);
    assert.equal(ofType(run.events, "model.request.completed").length, 2, "the two admitted are recorded");
    assert.deepEqual([finalEvent(run.events)?.data["stopped_by"]], ["tokens"]);
  });

  test("a tool call the model asked for that the agent never reported is a warning", async () => {
    await using twin = await ModelTwin.start({ scenario: { name: "write", path: "hidden.txt", content: "x\n" } });
    const run = await runScripted("proxy-hidden", { turns: [[{ model_call: { tools: ["Write"] } }, { write: { path: "done.txt", content: "ok\n" } }, { say: "done" }]] }, { config: proxyConfig(twin), env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(ofType(run.events, "model.request.completed").map((e) => e["tool_calls"]), [["Write"]]);
    // One call asked for (Write) and one reported (the write step): balanced, no warning.
    assert.equal(ofType(run.events, "log").filter((l) => l["code"] === "unreported_tool_calls").length, 0);
    const hidden = await runScripted("proxy-hidden2", { turns: [[{ model_call: { tools: ["Write"] } }, { model_call: { tools: ["Write"] } }, { write: { path: "done.txt", content: "ok\n" } }]] }, { config: proxyConfig(twin), env: env() });
    assert.equal(hidden.code, 0, hidden.stderr);
    const warned = ofType(hidden.events, "log").filter((l) => l["code"] === "unreported_tool_calls");
    assert.equal(warned.length, 1);
    assert.match(String(warned[0]?.["message"]), /asked for 2 tool call\(s\) \(Write\) and the agent reported 1/);
  });

  test("a missing upstream key is refused before the run starts, naming the variable and the way out", async () => {
    await using twin = await ModelTwin.start({ scenario: "text" });
    const run = await runScripted("proxy-nokey", { turns: [[{ say: "hi" }]] }, { config: proxyConfig(twin), env: cliEnv() });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /UPSTREAM_TEST_KEY/);
    assert.match(run.stderr, /enabled = false/);
    assert.equal(modelCalls(twin).length, 0);
  });
});
