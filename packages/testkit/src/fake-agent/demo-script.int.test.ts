import assert from "node:assert/strict";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { driveFakeAgent, openSession, prompt } from "./acp-test-client.ts";
import { demoScript, demoScriptPath } from "./demo-script.ts";

test("the demo script plays end to end: files written, command succeeds, usage reported", async () => {
  const cwd = await realpath(await testTempDir("fake-agent-demo-"));
  await driveFakeAgent(["--script", demoScriptPath], async (ctx, agent) => {
    const response = await prompt(ctx, await openSession(ctx, cwd), "add a greeting");
    assert.equal(response.stopReason, "end_turn");
    assert.ok(response.usage && response.usage.totalTokens > 0);
    const updates = agent.updates();
    const failed = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    assert.deepEqual(failed, [], "no tool call of the demo fails");
    const run = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed" && u.rawOutput);
    assert.match(String((run?.rawOutput as { output: string }).output), /Hello, Baton!\nok - /);
    const kinds = new Set(updates.map((u) => u.sessionUpdate));
    for (const kind of ["agent_thought_chunk", "plan", "agent_message_chunk", "tool_call", "usage_update"]) {
      assert.ok(kinds.has(kind), `the demo shows ${kind}`);
    }
  });
  assert.match(await readFile(join(cwd, "greet.js"), "utf8"), /Hello, \$\{name\}!/);
  assert.ok(demoScript.turns[0]?.some((step) => "run" in step));
});
