import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { z } from "zod";
import { FAKE_DEFAULT_MODEL } from "./bin-args.ts";
import { createFakeSession } from "./fake-session.ts";
import type { FakeSession } from "./fake-session.ts";
import type { Script } from "./script.ts";
import { playTurn } from "./turn.ts";

export const FAKE_AGENT_NAME = "baton-fake-agent";
export const FAKE_AGENT_VERSION = "0.1.0";

export type FakeAgentOptions = {
  script: Script;
  /** Ends the process for a `crash` step (`process.exit` in the executable). */
  exit: (code: number) => never;
  /** Writes a `stderr` step's text to the agent's standard error; resolves once written. */
  writeStderr: (text: string) => Promise<void>;
  /** The model sessions start with (default "fake-model"). */
  model?: string;
  /** Sessions keep this model whatever the client asks: an agent that ignores model choices. */
  fixedModel?: string;
  /** Ids are injectable so in-process tests can make them predictable. */
  newSessionId?: () => string;
  newToolCallId?: () => string;
  /** Where the app keeps its sessions by id: pass a map to look at them (notices) in tests. */
  sessions?: Map<string, FakeSession>;
};

/**
 * The scripted fake agent as an SDK agent app: connect it to a stream (stdio in `bin.ts`)
 * and it answers `initialize`, `session/new`, `session/prompt` and `session/cancel`, playing
 * turn i of the script for the i-th prompt of a session. Prompts past the last turn end at
 * once with `end_turn`. A prompt that arrives while a turn plays is a notice: kept in the
 * session's `notices` and answered at once with `end_turn`, while the turn plays on.
 *
 * @example createFakeAgent({ script, exit: process.exit, writeStderr }).connect(acp.ndJsonStream(out, in))
 */
export function createFakeAgent(options: FakeAgentOptions): acp.AgentApp {
  const { script, exit, writeStderr } = options;
  const startModel = options.fixedModel ?? options.model ?? FAKE_DEFAULT_MODEL;
  const chooseModel = (session: FakeSession, model: string): void => {
    session.model = options.fixedModel ?? model;
  };
  const newSessionId = options.newSessionId ?? (() => randomId("ses_"));
  const newToolCallId = options.newToolCallId ?? (() => randomId("call_"));
  // Per app, not per module: each connected app gets its own sessions.
  const sessions = options.sessions ?? new Map<string, FakeSession>();
  // Real agents (Claude Code) ask form questions only of a client that says it takes them.
  let takesForms = false;

  return acp
    .agent({ name: FAKE_AGENT_NAME })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      takesForms = params.clientCapabilities?.elicitation?.form != null;
      return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentInfo: { name: FAKE_AGENT_NAME, title: "Baton fake agent (scripted)", version: FAKE_AGENT_VERSION },
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: { http: false, sse: false },
      },
      authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.authenticate, () => ({}))
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const session = createFakeSession(newSessionId(), resolve(params.cwd), startModel, takesForms);
      sessions.set(session.id, session);
      return { sessionId: session.id, configOptions: configOptionsOf(session), models: modelStateOf(session), modes: modeStateOf(session) };
    })
    // Modes change nothing in how a script plays (every tool call asks permission); they are
    // here so that a client's session/set_mode has something to set.
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      if (!FAKE_MODES.some((mode) => mode.id === params.modeId)) throw acp.RequestError.invalidParams(undefined, `no mode "${params.modeId}"`);
      session.mode = params.modeId;
      return {};
    })
    // The model is offered both ways real agents offer it: a `model` session config option,
    // and the older `models` state with `session/set_model`. Any model id is accepted, unless
    // the agent was started with --fixed-model.
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      if (params.configId !== MODEL_OPTION_ID || typeof params.value !== "string") {
        throw acp.RequestError.invalidParams(undefined, `no config option "${params.configId}" takes that value`);
      }
      chooseModel(session, params.value);
      return { configOptions: configOptionsOf(session) };
    })
    .onRequest("session/set_model", setModelParams, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      chooseModel(session, params.modelId);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, signal, client }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      // ACP allows one prompt turn at a time per session; agents that take a prompt mid-turn
      // fold it into the turn that runs. This one notes it and answers it at once.
      if (session.activeTurn) {
        session.notices.push(promptText(params.prompt));
        return { stopReason: "end_turn" };
      }
      const steps = script.turns[session.promptsSeen] ?? [];
      session.promptsSeen += 1;
      // One controller per turn, aborted by `session/cancel` or by the request's own signal,
      // which aborts when the connection closes: running commands die with the connection.
      // (Wired by hand rather than with AbortSignal.any, whose composite follows its sources
      // lazily in Node 24; a plain listener leaves no doubt about when the abort lands.)
      const turnAbort = new AbortController();
      const abortTurn = (): void => turnAbort.abort(signal.reason);
      if (signal.aborted) abortTurn();
      else signal.addEventListener("abort", abortTurn, { once: true });
      session.activeTurn = turnAbort;
      try {
        const end = await playTurn(steps, {
          session,
          client,
          signal: turnAbort.signal,
          usage: { inputTokens: 0, outputTokens: 0, reported: false },
          newToolCallId,
          exit,
          writeStderr,
        });
        if (end.kind === "error") throw new acp.RequestError(end.error.code, end.error.message, end.error.data);
        return end.response;
      } finally {
        signal.removeEventListener("abort", abortTurn);
        session.activeTurn = undefined;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.activeTurn?.abort(new Error("session/cancel"));
    });
}

const MODEL_OPTION_ID = "model";

const FAKE_MODES = [
  { id: "auto", name: "Auto" },
  { id: "default", name: "Ask first" },
];

function modeStateOf(session: FakeSession): acp.SessionModeState {
  return { currentModeId: session.mode, availableModes: FAKE_MODES };
}

/** `session/set_model` is not in the SDK's method table (ACP replaced it by config options). */
const setModelParams = z.looseObject({ sessionId: z.string(), modelId: z.string().min(1) });

function configOptionsOf(session: FakeSession): acp.SessionConfigOption[] {
  return [
    {
      id: MODEL_OPTION_ID,
      name: "Model",
      category: "model",
      type: "select",
      currentValue: session.model,
      options: [{ value: session.model, name: session.model }],
    },
  ];
}

function modelStateOf(session: FakeSession) {
  return { currentModelId: session.model, availableModels: [{ modelId: session.model, name: session.model }] };
}

/** The text blocks of a prompt, one after another. */
function promptText(prompt: readonly acp.ContentBlock[]): string {
  return prompt.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function randomId(prefix: string): string {
  // Time first, so ids sort by creation like Baton's own prefixed ids.
  return `${prefix}${Date.now().toString(36)}${randomBytes(6).toString("hex")}`;
}
