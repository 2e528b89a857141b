// The fake agent in process, wired to the SDK's client over in-memory streams: for what only
// the agent's own state shows (a session's notices) and for timing without process startup.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { testTempDir } from "@baton/protocol/testing";
import { tapLines, type RawMessage } from "../testing/acp-tap.ts";
import { createFakeAgent } from "./fake-agent.ts";
import type { FakeSession } from "./fake-session.ts";
import { validateScript } from "./script.ts";
import type { ScriptInput } from "./script.ts";

type InProcess = {
  ctx: acp.ClientContext;
  sessionId: string;
  session: FakeSession;
  messages: RawMessage[];
  stderr: string[];
  updates(kind: string): Array<Record<string, unknown>>;
};

/** `takesForms`: the client says it takes form questions, and answers each with `answer`. */
type ClientOptions = { takesForms?: boolean; answer?: acp.CreateElicitationResponse; asked?: acp.CreateElicitationRequest[] };

async function inProcess<T>(script: ScriptInput, op: (agent: InProcess) => Promise<T>, options: ClientOptions = {}): Promise<T> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const sessions = new Map<string, FakeSession>();
  const stderr: string[] = [];
  const app = createFakeAgent({
    script: validateScript(script, "test"),
    exit: (code) => assert.fail(`the agent exited with ${code}`),
    writeStderr: async (text) => void stderr.push(text),
    sessions,
    newSessionId: () => "ses_test",
  });
  const connection = app.connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  const messages: RawMessage[] = [];
  const client = acp
    .client({ name: "fake-agent-unit-test" })
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
    .onRequest(acp.methods.client.elicitation.create, ({ params }) => {
      options.asked?.push(params);
      return options.answer ?? { action: "decline" };
    });
  try {
    return await client.connectWith(acp.ndJsonStream(toAgent.writable, toClient.readable.pipeThrough(tapLines(messages))), async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: options.takesForms === true ? { elicitation: { form: {} } } : {} });
      const cwd = await testTempDir("fake-agent-unit-");
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const updates = (kind: string) =>
        messages
          .filter((message) => message.method === "session/update")
          .map((message) => message.params?.update as Record<string, unknown>)
          .filter((update) => update["sessionUpdate"] === kind);
      return op({ ctx, sessionId, session: sessions.get(sessionId)!, messages, stderr, updates });
    });
  } finally {
    connection.close();
  }
}

const prompt = (agent: InProcess, text = "go") => agent.ctx.request(acp.methods.agent.session.prompt, { sessionId: agent.sessionId, prompt: [{ type: "text", text }] });

describe("fake agent in process", () => {
  const FORM = { message: "Which database?", schema: { type: "object" as const, properties: { db: { type: "string", enum: ["postgres", "sqlite"] } }, required: ["db"] } };

  test("ask puts a form question tied to a tool call to a client that takes them, and reports the answer", async () => {
    const asked: acp.CreateElicitationRequest[] = [];
    await inProcess(
      [{ ask: FORM }],
      async (agent) => {
        assert.equal((await prompt(agent)).stopReason, "end_turn");
        const [call] = agent.updates("tool_call");
        assert.equal(call?.["title"], "AskUserQuestion");
        assert.deepEqual(asked, [{ sessionId: agent.sessionId, toolCallId: call?.["toolCallId"], message: "Which database?", mode: "form", requestedSchema: FORM.schema }]);
        const done = agent.updates("tool_call_update").at(-1);
        assert.equal(done?.["status"], "completed");
        assert.deepEqual(done?.["rawOutput"], { action: "accept", content: { db: "sqlite" } });
        const said = agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text).join("");
        assert.equal(said, 'The user answered: {"action":"accept","content":{"db":"sqlite"}}');
      },
      { takesForms: true, answer: { action: "accept", content: { db: "sqlite" } }, asked },
    );
  });

  test("ask does not ask a client that takes no form questions: it says so and goes on", async () => {
    const asked: acp.CreateElicitationRequest[] = [];
    await inProcess([{ ask: FORM }, { say: "after" }], async (agent) => {
      assert.equal((await prompt(agent)).stopReason, "end_turn");
      assert.deepEqual(asked, []);
      const said = agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text).join("");
      assert.match(said, /^The client takes no form questions; going on without asking\.after$/);
    }, { asked });
  });

  test("a prompt mid-turn is a notice: answered at once, kept, and the turn plays on", async () => {
    // The turn waits at a gate only this test opens: the notice's answer cannot wait for it.
    const script = { turns: [[{ say: "working" }, { wait_for: "go" }, { say: "done" }], [{ say: "second turn" }]] };
    await inProcess(script, async (agent) => {
      let turnEnded = false;
      const turn = prompt(agent).finally(() => (turnEnded = true));
      await waitFor(() => agent.updates("agent_message_chunk").length > 0);
      assert.deepEqual(await prompt(agent, "You have used 80% of your time."), { stopReason: "end_turn" });
      assert.equal(turnEnded, false, "the notice was answered while the turn still played");
      assert.deepEqual(agent.session.notices, ["You have used 80% of your time."]);
      await writeFile(join(agent.session.cwd, "go"), "");
      assert.equal((await turn).stopReason, "end_turn");
      // The notice played no script turn: the next prompt plays turn 2.
      await prompt(agent);
      const said = agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text);
      assert.equal(said.join(""), "workingdonesecond turn");
      assert.equal(agent.session.promptsSeen, 2);
    });
  });

  test("repeat plays its steps that many times, each tool call a new call", async () => {
    await inProcess([{ repeat: { times: 100, steps: [{ write: { path: "loop.txt", content: "same\n" } }, { say: "again" }] } }, { stop: "max_tokens" }], async (agent) => {
      assert.equal((await prompt(agent)).stopReason, "max_tokens");
      const calls = agent.updates("tool_call");
      assert.equal(calls.length, 100);
      assert.equal(new Set(calls.map((call) => call["toolCallId"])).size, 100);
      assert.ok(calls.every((call) => JSON.stringify(call["rawInput"]) === JSON.stringify({ path: "loop.txt", content: "same\n" })));
    });
  });

  test("a stop inside a repeat ends the turn there", async () => {
    await inProcess([{ repeat: { times: 5, steps: [{ say: "once" }, { stop: "refusal" }] } }, { say: "never" }], async (agent) => {
      assert.equal((await prompt(agent)).stopReason, "refusal");
      assert.equal(agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text).join(""), "once");
    });
  });

  test("stderr writes the text and a newline", async () => {
    await inProcess([{ stderr: "API Error: 529 overloaded" }, { say: "after" }], async (agent) => {
      await prompt(agent);
      assert.deepEqual(agent.stderr, ["API Error: 529 overloaded\n"]);
    });
  });

  test("hang ignores a cancel for its whole time, then the turn ends cancelled", async () => {
    await inProcess([{ hang: 300 }, { say: "never" }], async (agent) => {
      const startedAt = performance.now();
      const turn = prompt(agent);
      await waitFor(() => agent.session.activeTurn !== undefined);
      await agent.ctx.notify(acp.methods.agent.session.cancel, { sessionId: agent.sessionId });
      assert.equal((await turn).stopReason, "cancelled");
      assert.ok(performance.now() - startedAt >= 290, "the hang ended early");
      assert.equal(agent.updates("agent_message_chunk").length, 0);
    });
  });

  test("wait_for holds the turn until its file exists (relative to the session's cwd), then the turn goes on", async () => {
    await inProcess([{ say: "before" }, { wait_for: "gates/go" }, { say: "after" }], async (agent) => {
      let turnEnded = false;
      const turn = prompt(agent).finally(() => (turnEnded = true));
      await waitFor(() => agent.updates("agent_message_chunk").length > 0);
      // A notice's round trip: the agent has handled what came after the turn reached the gate.
      await prompt(agent, "still there?");
      const said = () => agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text).join("");
      assert.equal(said(), "before");
      assert.equal(turnEnded, false, "the turn waits at the gate");
      await mkdir(join(agent.session.cwd, "gates"));
      await writeFile(join(agent.session.cwd, "gates", "go"), "");
      assert.equal((await turn).stopReason, "end_turn");
      assert.equal(said(), "beforeafter");
    });
  });

  test("a cancel ends a wait_for whose file never comes: the turn ends cancelled", async () => {
    await inProcess([{ wait_for: "never" }, { say: "never said" }], async (agent) => {
      const turn = prompt(agent);
      await waitFor(() => agent.session.activeTurn !== undefined);
      await agent.ctx.notify(acp.methods.agent.session.cancel, { sessionId: agent.sessionId });
      assert.equal((await turn).stopReason, "cancelled");
      assert.equal(agent.updates("agent_message_chunk").length, 0);
    });
  });

  test("wait_for_notice holds the turn until a mid-turn prompt holds its text, then the turn goes on", async () => {
    await inProcess([{ say: "before" }, { wait_for_notice: "keep the API" }, { say: "after" }], async (agent) => {
      let turnEnded = false;
      const turn = prompt(agent).finally(() => (turnEnded = true));
      await waitFor(() => agent.updates("agent_message_chunk").length > 0);
      await prompt(agent, "an unrelated notice");
      assert.equal(turnEnded, false, "a notice without the text does not end the wait");
      await prompt(agent, "Message from ada: please keep the API as it is");
      assert.equal((await turn).stopReason, "end_turn");
      const said = agent.updates("agent_message_chunk").map((update) => (update["content"] as { text: string }).text).join("");
      assert.equal(said, "beforeafter");
    });
  });

  test("a cancel ends a wait_for_notice that never comes: the turn ends cancelled", async () => {
    await inProcess([{ wait_for_notice: "never" }, { say: "never said" }], async (agent) => {
      const turn = prompt(agent);
      await waitFor(() => agent.session.activeTurn !== undefined);
      await agent.ctx.notify(acp.methods.agent.session.cancel, { sessionId: agent.sessionId });
      assert.equal((await turn).stopReason, "cancelled");
    });
  });

  test("hang without a cancel just waits, and the turn goes on", async () => {
    await inProcess([{ hang: 20 }, { say: "after" }], async (agent) => {
      assert.equal((await prompt(agent)).stopReason, "end_turn");
      assert.equal(agent.updates("agent_message_chunk").length > 0, true);
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
