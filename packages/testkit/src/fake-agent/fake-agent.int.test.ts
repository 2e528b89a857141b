import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { testTempDir } from "@baton/protocol/testing";
import { makeGate } from "../testing/gate.ts";
import { driveFakeAgent, openSession, prompt } from "./acp-test-client.ts";
import type { FakeAgentProcess } from "./acp-test-client.ts";
import { fakeAgentBinPath } from "./command.ts";
import type { ScriptInput } from "./script.ts";

let cwd: string;
before(async () => {
  // realpath: on macOS the temp dir is a symlink, and the agent reports resolved paths.
  cwd = await realpath(await testTempDir("fake-agent-"));
});

const json = (script: ScriptInput): string[] => ["--script-json", JSON.stringify(script)];
/** A wait no test sits out: an answer before it is over was cut short. */
const LONG_WAIT_MS = 30_000;
const ofKind = (agent: FakeAgentProcess, kind: string) => agent.updates().filter((u) => u.sessionUpdate === kind);
const chunkText = (update: Record<string, unknown>) => (update.content as { text: string }).text;

/** Runs one prompt of `script` in a fresh session; returns the response and the process. */
async function playOnce(script: ScriptInput, options: { permission?: "allow_once" | "reject_once" } = {}) {
  return driveFakeAgent(
    json(script),
    async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      return { response: await prompt(ctx, sessionId), agent, sessionId };
    },
    options,
  );
}

/** Each test is its own agent process, mostly waiting on Node's startup: overlap them. */
const PARALLEL_AGENTS = 4;

describe("fake agent over stdio", { concurrency: PARALLEL_AGENTS }, () => {
  test("initialize names the agent; session/new gives a ses_ id", async () => {
    await driveFakeAgent(json([]), async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      assert.equal(init.protocolVersion, 1);
      assert.equal(init.agentInfo?.name, "baton-fake-agent");
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      assert.match(sessionId, /^ses_[0-9a-z]+$/);
    });
  });

  test("session/new reports the model and modes; set_config_option, set_model and set_mode change them", async () => {
    await driveFakeAgent(json([]), async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const created = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const sessionId = created.sessionId;
      assert.equal(created.configOptions?.[0]?.currentValue, "fake-model");
      assert.equal((created as { models?: { currentModelId?: string } }).models?.currentModelId, "fake-model");
      assert.equal(created.modes?.currentModeId, "auto");
      const set = await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "big-model" });
      assert.equal(set.configOptions[0]?.currentValue, "big-model");
      await ctx.request("session/set_model", { sessionId, modelId: "other/model" });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "default" });
      await assert.rejects(ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" }), /yolo/);
    });
  });

  test("say streams several chunks that join to the text; think and plan go out too", async () => {
    const text = "I will add a greeting module and a test, then run them.";
    const { response, agent } = await playOnce([
      { think: "short thought" },
      { plan: [{ content: "Add greet.js", status: "pending" }] },
      { say: text },
    ]);
    assert.equal(response.stopReason, "end_turn");
    const chunks = ofKind(agent, "agent_message_chunk");
    assert.ok(chunks.length > 2, `expected streaming, got ${chunks.length} chunk(s)`);
    assert.equal(chunks.map(chunkText).join(""), text);
    assert.equal(ofKind(agent, "agent_thought_chunk").map(chunkText).join(""), "short thought");
    assert.deepEqual(ofKind(agent, "plan")[0]?.entries, [{ content: "Add greet.js", status: "pending", priority: "medium" }]);
  });

  test("write asks permission, creates the file and reports a diff", async () => {
    const { agent } = await playOnce([
      { write: { path: "src/greet.js", content: "one\n" } },
      { write: { path: "src/greet.js", content: "two\n" } },
    ]);
    const target = join(cwd, "src/greet.js");
    assert.equal(await readFile(target, "utf8"), "two\n");
    const [call] = ofKind(agent, "tool_call");
    assert.equal(call?.kind, "edit");
    assert.equal(call?.status, "pending");
    assert.equal(call?.title, "Write src/greet.js");
    assert.deepEqual(call?.rawInput, { path: "src/greet.js", content: "one\n" });
    assert.deepEqual(call?.locations, [{ path: target }]);
    assert.deepEqual(
      agent.permissionRequests[0]?.options.map((option) => option.kind),
      ["allow_once", "allow_always", "reject_once"],
    );
    const done = ofKind(agent, "tool_call_update").filter((u) => u.status === "completed");
    assert.deepEqual(
      done.map((u) => u.content),
      [
        [{ type: "diff", path: target, oldText: null, newText: "one\n" }],
        [{ type: "diff", path: target, oldText: "one\n", newText: "two\n" }],
      ],
    );
  });

  test("a rejected write leaves no file and fails the tool call", async () => {
    const { response, agent } = await playOnce([{ write: { path: "rejected.txt", content: "x" } }, { say: "ok" }], {
      permission: "reject_once",
    });
    assert.equal(response.stopReason, "end_turn");
    assert.equal(existsSync(join(cwd, "rejected.txt")), false);
    const [update] = ofKind(agent, "tool_call_update");
    assert.equal(update?.status, "failed");
    assert.match(JSON.stringify(update?.content), /rejected/);
  });

  test("run reports combined output and the exit code", async () => {
    const { agent } = await playOnce([{ run: "echo out; echo err >&2; exit 3" }, { run: "pwd" }]);
    const [call] = ofKind(agent, "tool_call");
    assert.equal(call?.kind, "execute");
    assert.deepEqual(call?.rawInput, { command: "echo out; echo err >&2; exit 3" });
    const finished = ofKind(agent, "tool_call_update").filter((u) => u.status === "completed" || u.status === "failed");
    assert.equal(finished[0]?.status, "failed");
    assert.deepEqual(finished[0]?.rawOutput, { exit_code: 3, output: "out\nerr\n" });
    assert.deepEqual(finished[0]?.content, [{ type: "content", content: { type: "text", text: "out\nerr\n" } }]);
    assert.equal(finished[1]?.status, "completed");
    assert.deepEqual(finished[1]?.rawOutput, { exit_code: 0, output: `${cwd}\n` });
  });

  test("fail answers the prompt with that JSON-RPC error", async () => {
    const error = await driveFakeAgent(json([{ say: "trying" }, { fail: { code: -32603, message: "Overloaded", data: { errorKind: "server_error" } } }]), async (ctx) => {
      const sessionId = await openSession(ctx, cwd);
      return prompt(ctx, sessionId).then(() => assert.fail("expected an error"), (e: unknown) => e);
    });
    assert.ok(error instanceof acp.RequestError);
    assert.equal(error.code, -32603);
    assert.equal(error.message, "Overloaded");
    assert.deepEqual(error.data, { errorKind: "server_error" });
  });

  test("crash exits with the given code mid-turn", async () => {
    let agentProcess: FakeAgentProcess | undefined;
    await assert.rejects(
      driveFakeAgent(json([{ say: "about to go" }, { crash: 3 }, { say: "never" }]), async (ctx, agent) => {
        agentProcess = agent;
        await prompt(ctx, await openSession(ctx, cwd));
      }),
    );
    assert.equal(await agentProcess?.exited, 3);
    assert.equal(ofKind(agentProcess!, "agent_message_chunk").map(chunkText).join(""), "about to go");
  });

  test("stop ends the turn with that stop reason", async () => {
    const { response, agent } = await playOnce([{ stop: "max_tokens" }, { say: "never" }]);
    assert.equal(response.stopReason, "max_tokens");
    assert.equal(ofKind(agent, "agent_message_chunk").length, 0);
  });

  test("session/cancel during a sleep answers cancelled before the sleep is over", async () => {
    await driveFakeAgent(json([{ say: "waiting" }, { sleep: LONG_WAIT_MS }, { say: "never" }]), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      const promptedAt = performance.now();
      const response = prompt(ctx, sessionId);
      await waitFor(() => ofKind(agent, "agent_message_chunk").length > 0);
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await response).stopReason, "cancelled");
      assert.ok(performance.now() - promptedAt < LONG_WAIT_MS, "the cancel waited the sleep out");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join(""), "waiting");
    });
  });

  test("session/cancel kills a running command and fails its tool call", async () => {
    await driveFakeAgent(json([{ run: `echo started; sleep ${LONG_WAIT_MS / 1000}; echo never` }]), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      const promptedAt = performance.now();
      const response = prompt(ctx, sessionId);
      await waitFor(() => ofKind(agent, "tool_call_update").some((u) => u.status === "in_progress"));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await response).stopReason, "cancelled");
      assert.ok(performance.now() - promptedAt < LONG_WAIT_MS, "the cancel waited for the command to finish");
      const last = ofKind(agent, "tool_call_update").at(-1);
      assert.equal(last?.status, "failed");
      assert.equal((last?.rawOutput as { exit_code: unknown }).exit_code, null);
    });
  });

  test("repeat makes the same tool call hundreds of times, with the same input and result", async () => {
    // `write` rather than `run`: a shell per call would make this test slow, not stronger.
    const write = { path: "loop/same.txt", content: "same\n" };
    const { response, agent } = await playOnce([{ repeat: { times: 300, steps: [{ write }] } }, { say: "looped" }]);
    assert.equal(response.stopReason, "end_turn");
    const calls = ofKind(agent, "tool_call");
    assert.equal(calls.length, 300);
    assert.equal(new Set(calls.map((call) => call.toolCallId)).size, 300, "each a call of its own");
    assert.ok(calls.every((call) => JSON.stringify(call.rawInput) === JSON.stringify(write)));
    const results = ofKind(agent, "tool_call_update").filter((u) => u.status === "completed");
    assert.equal(results.length, 300);
    const target = join(cwd, write.path);
    const unchanged = JSON.stringify([{ type: "diff", path: target, oldText: "same\n", newText: "same\n" }]);
    assert.equal(results.slice(1).filter((u) => JSON.stringify(u.content) === unchanged).length, 299);
    assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join(""), "looped");
  });

  test("hang does not answer session/cancel; the turn ends cancelled when the hang is over", async () => {
    const hangMs = 600;
    await driveFakeAgent(json([{ say: "stuck" }, { hang: hangMs }, { say: "never" }]), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      const promptedAt = performance.now();
      const response = prompt(ctx, sessionId);
      await waitFor(() => ofKind(agent, "agent_message_chunk").length > 0);
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await response).stopReason, "cancelled");
      // The hang began after the prompt was sent; however late the cancel came, the answer
      // could only come once the hang was over (timers tick in whole milliseconds).
      assert.ok(performance.now() - promptedAt >= hangMs - 1, "the hang answered the cancel");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join(""), "stuck");
    });
  });

  test("wait_for holds the turn until its file exists, at an absolute path outside the session's cwd", async () => {
    const gate = await makeGate("go");
    await driveFakeAgent(json([{ say: "before" }, gate.step, { say: "after" }]), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      let turnEnded = false;
      const response = prompt(ctx, sessionId).finally(() => (turnEnded = true));
      await waitFor(() => ofKind(agent, "agent_message_chunk").length > 0);
      // A notice's round trip: the agent has handled what came after the turn reached the gate.
      assert.equal((await prompt(ctx, sessionId, "still there?")).stopReason, "end_turn");
      assert.equal(turnEnded, false, "the turn waits at the gate");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join(""), "before");
      await gate.open();
      assert.equal((await response).stopReason, "end_turn");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join(""), "beforeafter");
    });
  });

  test("stderr then crash: the agent's last words are on stderr when it exits", async () => {
    let agentProcess: FakeAgentProcess | undefined;
    await assert.rejects(
      driveFakeAgent(json([{ stderr: "API Error: 429 rate limit exceeded" }, { stderr: "giving up" }, { crash: 1 }]), async (ctx, agent) => {
        agentProcess = agent;
        await prompt(ctx, await openSession(ctx, cwd));
      }),
    );
    assert.equal(await agentProcess?.exited, 1);
    assert.equal(agentProcess?.stderr(), "API Error: 429 rate limit exceeded\ngiving up\n");
  });

  test("a prompt mid-turn is answered at once with end_turn while the turn plays on", async () => {
    const gate = await makeGate("done");
    await driveFakeAgent(json({ turns: [[{ say: "working" }, gate.step, { say: "done" }], [{ say: "next" }]] }), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      let turnEnded = false;
      const turn = prompt(ctx, sessionId).finally(() => (turnEnded = true));
      await waitFor(() => ofKind(agent, "agent_message_chunk").length > 0);
      assert.equal((await prompt(ctx, sessionId, "Notice: 80% of the time limit is used.")).stopReason, "end_turn");
      assert.equal(turnEnded, false, "the notice was answered while the turn waited at its gate");
      await gate.open();
      assert.equal((await turn).stopReason, "end_turn");
      assert.equal((await prompt(ctx, sessionId)).stopReason, "end_turn");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join("|"), "working|done|next");
    });
  });

  test("flood delivers exactly N chunks", async () => {
    const { agent } = await playOnce([{ flood: 10_000 }]);
    assert.equal(ofKind(agent, "agent_message_chunk").length, 10_000);
  });

  test("usage goes out as usage_update, each call's own tokens, and their sum in the prompt response on the wire", async () => {
    const { response, agent } = await playOnce([
      { usage: { input_tokens: 100, output_tokens: 20, cost_usd: 0.1 } },
      { usage: { input_tokens: 50, output_tokens: 5, cost_usd: 0.2 } },
    ]);
    const expected = { inputTokens: 150, outputTokens: 25, totalTokens: 175 };
    assert.deepEqual(response.usage, expected);
    const raw = agent.messages.find((message) => message.result?.stopReason !== undefined);
    assert.deepEqual(raw?.result, { stopReason: "end_turn", usage: expected });
    // Each step is one model call: its `used` is that call's input and output, as Codex sends.
    assert.deepEqual(ofKind(agent, "usage_update"), [
      { sessionUpdate: "usage_update", used: 120, size: 200_000, cost: { amount: 0.1, currency: "USD" } },
      { sessionUpdate: "usage_update", used: 55, size: 200_000, cost: { amount: 0.3, currency: "USD" } },
    ]);
  });

  test("an unknown update kind and an extension notification reach the wire in order", async () => {
    const { agent, sessionId } = await playOnce([
      { say: "a" },
      { update: { sessionUpdate: "something_new", detail: { n: 1 } } },
      { ext: { method: "_baton/ping", params: { n: 2 } } },
      { say: "b" },
    ]);
    const wire = agent.messages.filter((message) => message.method !== undefined);
    assert.deepEqual(
      wire.map((message) => message.method),
      ["session/update", "session/update", "_baton/ping", "session/update"],
    );
    assert.deepEqual(wire[1]?.params, { sessionId, update: { sessionUpdate: "something_new", detail: { n: 1 } } });
    assert.deepEqual(wire[2]?.params, { n: 2 });
  });

  test("turn i plays for the i-th prompt; prompts past the last turn just end", async () => {
    await driveFakeAgent(json({ turns: [[{ say: "first" }], [{ say: "second" }, { stop: "refusal" }]] }), async (ctx, agent) => {
      const sessionId = await openSession(ctx, cwd);
      assert.equal((await prompt(ctx, sessionId)).stopReason, "end_turn");
      assert.equal((await prompt(ctx, sessionId)).stopReason, "refusal");
      assert.equal((await prompt(ctx, sessionId)).stopReason, "end_turn");
      assert.equal(ofKind(agent, "agent_message_chunk").map(chunkText).join("|"), "first|second");
    });
  });

  test("exits 0 when stdin closes", async () => {
    let exited: Promise<number | null> | undefined;
    await driveFakeAgent(json([]), async (ctx, agent) => {
      exited = agent.exited;
      await openSession(ctx, cwd);
    });
    assert.equal(await exited, 0);
  });

  test("closing stdin mid-command exits 0 and kills the command's process group", async () => {
    const pidFile = join(cwd, "group.pid");
    let exited: Promise<number | null> | undefined;
    await driveFakeAgent(json([{ run: `echo $$ > ${pidFile}; sleep 30; echo never` }]), async (ctx, agent) => {
      exited = agent.exited;
      const response = prompt(ctx, await openSession(ctx, cwd));
      response.catch(() => {}); // the connection closes under it; that is the point
      await waitFor(() => ofKind(agent, "tool_call_update").some((u) => u.status === "in_progress"));
      // The file exists before `echo` has written to it: wait for the whole line.
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"));
      agent.closeStdin();
    });
    assert.equal(await exited, 0);
    const groupId = Number((await readFile(pidFile, "utf8")).trim());
    assert.ok(groupId > 1, `bad group id ${groupId}`);
    // Killed processes stay zombies until init reaps them, which can take a second here.
    await waitFor(() => !groupHasLiveProcess(groupId), 2000);
  });

  test("a bad script exits 2 with a one-line message before speaking ACP", async () => {
    const child = spawn(process.execPath, [fakeAgentBinPath, ...json([{ say: "ok" }, { wrte: {} }] as unknown as ScriptInput)]);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const code = await new Promise((resolve) => child.once("close", resolve));
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^script --script-json: step 2: unknown step "wrte"; known steps: say, think, .*\n$/);
    assert.equal(stderr.trim().split("\n").length, 1);
  });
});

function groupHasLiveProcess(groupId: number): boolean {
  const table = execFileSync("ps", ["-A", "-o", "pgid=", "-o", "stat="], { encoding: "utf8" });
  return table
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .some(([pgid, stat]) => Number(pgid) === groupId && !stat?.startsWith("Z"));
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
