#!/usr/bin/env node
// Collects how each installed real agent reports a failing model provider: for each agent and
// each fault, a model twin answers every model call with the fault, the agent gets one prompt,
// and one NDJSON record on stdout says how the turn ended (a JSON-RPC error, or a stop reason and
// the agent's words), what it wrote on stderr, how many requests the twin saw and how long the
// turn took (the agent's own retries). Progress goes to stderr. One agent runs at a time.
//
//   node scripts/agents/collect-provider-errors.ts [--agent claude,codex] [--fault 429,529]
//        [--deadline 90] [--retries short|default] [--messages neutral|provider] [--env NAME=VALUE …]
//
// `--retries short` (the default) applies the settings in SHORT_RETRIES, which make each agent's
// own retries and read timeouts short enough for a run to end within the deadline; `default`
// runs the agents as they come. A run still going at the deadline is cancelled (session/cancel),
// then the agent is killed, and the record says `ended: "deadline"`.
//
// The packages/engine/src/provider corpus is built from this output (paths replaced by
// placeholders already here: <home>, <repo>, <twin>, <agents-cache>, <tmp>).
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { ModelTwin } from "@baton/testkit/model-twin";
import type { FaultInput, TwinRequestRecord } from "@baton/testkit/model-twin";
import { agentLaunch, DEFAULT_MODELS, isolatedEnv } from "../../test/real-agents/agent-profiles.ts";
import type { AgentLaunch } from "../../test/real-agents/agent-profiles.ts";
import { driveRealAgent } from "../../test/real-agents/real-agent-client.ts";
import type { RawMessage } from "../../test/real-agents/real-agent-client.ts";
import { AGENT_NAMES, agentsCacheDir, isAgentInstalled, isAgentName } from "./agent-cache.ts";
import type { AgentName } from "./agent-cache.ts";

/** The body message of every injected status: no status number and no class words, so what the agent says is its own phrasing. */
export const NEUTRAL_MESSAGE = "the model twin refused this request";

/** Each agent's provider API, for PROVIDER_MESSAGES. */
const AGENT_API: Record<AgentName, "anthropic" | "openai" | "gemini"> = { claude: "anthropic", codex: "openai", opencode: "openai", gemini: "gemini" };

/**
 * With `--messages provider`: what real providers say with each status (their published error
 * messages, or close to them), so the record shows what the agent makes of real words.
 */
export const PROVIDER_MESSAGES: Record<"anthropic" | "openai" | "gemini", Partial<Record<number, string>>> = {
  anthropic: {
    401: "invalid x-api-key",
    402: "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
    403: "Your API key does not have permission to use the specified resource.",
    429: "This request would exceed your organization's rate limit of 50,000 input tokens per minute.",
    500: "Internal server error",
    503: "Service unavailable",
    529: "Overloaded",
  },
  openai: {
    401: "Incorrect API key provided: twin-api-*****cret. You can find your API key at https://platform.openai.com/account/api-keys.",
    402: "Insufficient credits. Add more using https://openrouter.ai/settings/credits",
    403: "Project `proj_twin` does not have access to model `gpt-5-codex`",
    429: "Rate limit reached for gpt-5-codex in organization org-twin on tokens per min (TPM): Limit 30000, Used 30000, Requested 512. Please try again in 2s.",
    500: "The server had an error while processing your request. Sorry about that!",
    503: "The engine is currently overloaded, please try again later",
    529: "The server is overloaded, please try again later",
  },
  gemini: {
    401: "API key not valid. Please pass a valid API key.",
    402: "Billing account not active. Please enable billing to continue.",
    403: "Permission denied: Consumer 'api_key:twin' has been suspended.",
    429: "Resource has been exhausted (e.g. check quota).",
    500: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
    503: "The model is overloaded. Please try again later.",
    529: "The model is overloaded. Please try again later.",
  },
};

/** The faults, by label. `none` is a normal text turn (for usage and cost reports). */
export const FAULTS: Record<string, FaultInput | undefined> = {
  none: undefined,
  "429 retry-after 2": { kind: "status", status: 429, retryAfter: 2, on: "any" },
  "429 insufficient_quota": {
    kind: "status",
    status: 429,
    message: "You exceeded your current quota, please check your plan and billing details.",
    on: "any",
  },
  "529": { kind: "status", status: 529, on: "any" },
  "503": { kind: "status", status: 503, on: "any" },
  "500": { kind: "status", status: 500, on: "any" },
  "401": { kind: "status", status: 401, on: "any" },
  "402": { kind: "status", status: 402, on: "any" },
  "403": { kind: "status", status: 403, on: "any" },
  reset: { kind: "reset", on: "any" },
  stall: { kind: "stall", afterChunks: 2, on: "any" },
};

/**
 * What makes each agent's own retries short, as found in its installed code:
 * - claude: `CLAUDE_CODE_MAX_RETRIES` (default 10, at most 15) caps its retries (of a 429, 5xx, 529,
 *   401 or reset; a 402 or 403 is not retried); `CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS` (at least 10 s;
 *   minutes by default) is how long a stalled stream is waited for, after which it asks again without
 *   streaming and waits `API_TIMEOUT_MS` (default 10 min) for that answer.
 * - codex: the provider's `request_max_retries` (default 4), `stream_max_retries` (default 5) and
 *   `stream_idle_timeout_ms` (default 300000) in CODEX_HOME/config.toml.
 * - gemini: `general.maxAttempts` in settings.json (default 10, at most 10; first delay 5 s,
 *   doubling up to 30 s).
 * - opencode: retries are fixed (5, from 2 s doubling, or retry-after); the provider's
 *   `chunkTimeout` option (ms between stream chunks) bounds a stalled stream.
 */
export const SHORT_RETRIES = {
  claude: { env: { CLAUDE_CODE_MAX_RETRIES: "1", CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS: "10000", API_TIMEOUT_MS: "15000" } },
  codex: { provider: { request_max_retries: 1, stream_max_retries: 1, stream_idle_timeout_ms: 10_000 } },
  gemini: { settings: { general: { maxAttempts: 2 } } },
  opencode: { providerOptions: { chunkTimeout: 10_000 } },
} as const;

/** Applies SHORT_RETRIES to a launch made by `agentLaunch` (its config files are in `home`). */
export async function applyShortRetries(agent: AgentName, launch: AgentLaunch, home: string): Promise<AgentLaunch> {
  switch (agent) {
    case "claude":
      return { ...launch, env: { ...launch.env, ...SHORT_RETRIES.claude.env } };
    case "codex": {
      const path = join(home, ".codex", "config.toml");
      const lines = Object.entries(SHORT_RETRIES.codex.provider).map(([key, value]) => `${key} = ${value}`);
      const text = (await readFile(path, "utf8")).replace("[model_providers.twin]\n", `[model_providers.twin]\n${lines.join("\n")}\n`);
      await writeFile(path, text);
      return launch;
    }
    case "gemini": {
      const path = join(home, ".gemini", "settings.json");
      const settings = JSON.parse(await readFile(path, "utf8")) as { general?: Record<string, unknown> };
      settings.general = { ...settings.general, ...SHORT_RETRIES.gemini.settings.general };
      await writeFile(path, `${JSON.stringify(settings, null, 2)}\n`);
      return launch;
    }
    case "opencode": {
      const config = JSON.parse(launch.env["OPENCODE_CONFIG_CONTENT"] ?? "{}") as { provider: Record<string, { options: Record<string, unknown> }> };
      for (const provider of Object.values(config.provider)) Object.assign(provider.options, SHORT_RETRIES.opencode.providerOptions);
      return { ...launch, env: { ...launch.env, OPENCODE_CONFIG_CONTENT: JSON.stringify(config) } };
    }
  }
}

type TurnEnd =
  | { ended: "error"; error: { code: number; message: string; data?: unknown } }
  | { ended: "stop"; stop_reason: string }
  | { ended: "exited"; message: string }
  | { ended: "deadline"; after_cancel: string };

/** One record of the output. */
export type CollectedRecord = {
  agent: AgentName;
  version: string;
  agent_info?: unknown;
  fault: string;
  twin_fault?: FaultInput;
  retries: "short" | "default";
  /** Whose words a status fault's body holds: NEUTRAL_MESSAGE, or a real provider's (PROVIDER_MESSAGES). */
  messages: "neutral" | "provider";
  settings?: unknown;
  /** Variables given with --env, on top of the profile's. */
  extra_env?: Record<string, string>;
  deadline_s: number;
  /** `stop` with `stop_reason`, or how else the turn ended. */
  ended: TurnEnd["ended"];
  stop_reason?: string;
  error?: { code: number; message: string; data?: unknown };
  exit_message?: string;
  after_cancel?: string;
  /** At the deadline: whether the agent had already retried (the twin saw the conversation's call more than once), rather than still waiting on its first call. */
  still_retrying?: boolean;
  /** The agent's message text in the turn, chunks joined. */
  text: string;
  /** How many session updates of each kind the turn brought. */
  updates: Record<string, number>;
  /** Updates other than message, thought and command chunks, cut to 1000 characters each. */
  other_updates: string[];
  usage_updates: unknown[];
  stderr_tail: string[];
  twin: { requests: number; main: number; statuses: Array<number | null>; timeline: Array<{ ms: number; role: string; status: number | null; stream?: boolean }> };
  turn_ms: number;
  setup_error?: string;
};

function chosen<T extends string>(value: string | undefined, known: readonly T[], what: string): T[] {
  if (value === undefined) return [...known];
  const names = value.split(",").map((name) => name.trim());
  for (const name of names) {
    if (!(known as readonly string[]).includes(name)) throw new Error(`unknown ${what} ${JSON.stringify(name)}; known: ${known.join(", ")}`);
  }
  return names as T[];
}

async function gitRepo(): Promise<string> {
  const repo = await realpath(await mkdtemp(join(tmpdir(), "baton-provider-repo-")));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=Baton", "-c", "user.email=baton@example.invalid", "commit", "-q", "--allow-empty", "-m", "empty");
  return repo;
}

function updateKind(message: RawMessage): string | undefined {
  const update = (message.params as { update?: { sessionUpdate?: string } } | undefined)?.update;
  return message.method === "session/update" ? update?.sessionUpdate : undefined;
}

function chunkText(message: RawMessage): string {
  const content = (message.params as { update?: { content?: { type?: string; text?: string } } } | undefined)?.update?.content;
  return content?.type === "text" ? (content.text ?? "") : "";
}

/** Whether a model call asked for a streamed reply (Gemini says so in its path instead). */
function streamFlag(body: unknown): { stream?: boolean } {
  const stream = (body as { stream?: unknown } | null)?.stream;
  return typeof stream === "boolean" ? { stream } : {};
}

type RunOptions = { retries: "short" | "default"; deadlineMs: number; messages: "neutral" | "provider"; extraEnv: Record<string, string> };

/** The fault as the twin plays it: a status fault's body says NEUTRAL_MESSAGE, or with `provider` a real provider's words. */
function twinFault(agent: AgentName, base: FaultInput | undefined, messages: RunOptions["messages"]): FaultInput | undefined {
  if (base?.kind !== "status" || base.message !== undefined) return base;
  const message = messages === "provider" ? PROVIDER_MESSAGES[AGENT_API[agent]][base.status] : undefined;
  return { ...base, message: message ?? NEUTRAL_MESSAGE };
}

async function collectOne(agent: AgentName, faultLabel: string, { retries, deadlineMs, messages, extraEnv }: RunOptions): Promise<CollectedRecord> {
  const repo = await gitRepo();
  const home = await realpath(await mkdtemp(join(tmpdir(), `baton-provider-home-${agent}-`)));
  const fault = twinFault(agent, FAULTS[faultLabel], messages);
  const twin = await ModelTwin.start({ scenario: { name: "text", reply: "Hello from the model twin.", ...(fault === undefined ? {} : { fault }) } });
  const scrub = (text: string) =>
    text
      .split(agentsCacheDir())
      .join("<agents-cache>")
      .split(home)
      .join("<home>")
      .split(`${tmpdir()}/`)
      .join("<tmp>/").split(repo).join("<repo>").split(twin.url).join("<twin>").split(twin.url.replace(/^http:\/\//, "")).join("<twin>");
  try {
    let launch = await agentLaunch(agent, { twinUrl: twin.url, home, model: DEFAULT_MODELS[agent] });
    if (retries === "short") launch = await applyShortRetries(agent, launch, home);
    const env = { ...isolatedEnv(home), ...launch.env, ...extraEnv };
    let promptAt = 0;
    let promptIndex = 0;
    const outcome = await driveRealAgent(launch, env, repo, async (ctx, client) => {
      const fs = launch.clientFs ? { readTextFile: true, writeTextFile: true } : { readTextFile: false, writeTextFile: false };
      const init: acp.InitializeResponse = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs } });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [] });
      if (launch.sessionMode !== undefined) await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: launch.sessionMode });
      promptIndex = client.messages.length;
      promptAt = performance.now();
      const prompt = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Say hello." }] }).then(
        (response): TurnEnd => ({ ended: "stop", stop_reason: response.stopReason }),
        (error: unknown): TurnEnd =>
          error instanceof acp.RequestError
            ? { ended: "error", error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } }
            : { ended: "exited", message: error instanceof Error ? error.message : String(error) },
      );
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<"deadline">((resolve) => (timer = setTimeout(() => resolve("deadline"), deadlineMs)));
      let end = await Promise.race([prompt, deadline]);
      clearTimeout(timer);
      let turnMs = performance.now() - promptAt;
      if (end === "deadline") {
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => {});
        const grace = new Promise<"none">((resolve) => setTimeout(() => resolve("none"), 10_000).unref());
        const after = await Promise.race([prompt, grace]);
        end = { ended: "deadline", after_cancel: after === "none" ? "no answer within 10 s" : JSON.stringify(after) };
      } else {
        turnMs = performance.now() - promptAt;
      }
      return { end, turnMs, agentInfo: init.agentInfo, client };
    });
    const turnMessages = outcome.client.messages.slice(promptIndex);
    const updates: Record<string, number> = {};
    const otherUpdates: string[] = [];
    const usageUpdates: unknown[] = [];
    let text = "";
    for (const m of turnMessages) {
      const kind = updateKind(m);
      if (kind === undefined) continue;
      updates[kind] = (updates[kind] ?? 0) + 1;
      if (kind === "agent_message_chunk") text += chunkText(m);
      else if (kind === "usage_update") usageUpdates.push((m.params as { update: unknown }).update);
      else if (kind !== "agent_thought_chunk" && kind !== "available_commands_update") otherUpdates.push(scrub(JSON.stringify(m.params)).slice(0, 1000));
    }
    const requests: readonly TwinRequestRecord[] = twin.requests;
    const startedAt = Date.now() - (performance.now() - promptAt);
    const end = outcome.end;
    return {
      agent,
      version: launch.version,
      ...(outcome.agentInfo === undefined ? {} : { agent_info: outcome.agentInfo }),
      fault: faultLabel,
      ...(fault === undefined ? {} : { twin_fault: fault }),
      retries,
      messages,
      ...(retries === "short" ? { settings: SHORT_RETRIES[agent] } : {}),
      ...(Object.keys(extraEnv).length === 0 ? {} : { extra_env: extraEnv }),
      deadline_s: deadlineMs / 1000,
      ended: end.ended,
      ...(end.ended === "stop" ? { stop_reason: end.stop_reason } : {}),
      ...(end.ended === "error" ? { error: JSON.parse(scrub(JSON.stringify(end.error))) as CollectedRecord["error"] } : {}),
      ...(end.ended === "exited" ? { exit_message: scrub(end.message) } : {}),
      ...(end.ended === "deadline"
        ? { after_cancel: scrub(end.after_cancel), still_retrying: requests.filter((r) => r.role === "main").length > 1 }
        : {}),
      text: scrub(text),
      updates,
      other_updates: otherUpdates,
      usage_updates: usageUpdates,
      stderr_tail: scrub(outcome.client.stderr()).split("\n").filter((line) => line.trim() !== "").slice(-25),
      twin: {
        requests: requests.length,
        main: requests.filter((r) => r.role === "main").length,
        statuses: requests.map((r) => r.status),
        timeline: requests.map((r) => ({ ms: Math.round(Date.parse(r.at) - startedAt), role: r.role, status: r.status, ...streamFlag(r.body) })),
      },
      turn_ms: Math.round(outcome.turnMs),
    };
  } finally {
    await twin.close();
    await rm(repo, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true }).catch(() => {});
  }
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({
    options: {
      agent: { type: "string" },
      fault: { type: "string" },
      deadline: { type: "string", default: "90" },
      retries: { type: "string", default: "short" },
      messages: { type: "string", default: "neutral" },
      env: { type: "string", multiple: true, default: [] },
    },
  });
  const agents = chosen(options.agent, AGENT_NAMES, "agent").filter((agent) => {
    if (isAgentInstalled(agent)) return true;
    console.error(`# ${agent}: not installed, skipped (npm run agents:install -- ${agent})`);
    return false;
  });
  const faults = chosen(options.fault, Object.keys(FAULTS), "fault");
  const retries = options.retries === "default" ? "default" : "short";
  const deadlineMs = Number(options.deadline) * 1000;
  const extraEnv = Object.fromEntries(
    options.env.map((pair) => {
      const at = pair.indexOf("=");
      if (at <= 0) throw new Error(`--env takes NAME=VALUE, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  for (const agent of agents) {
    if (!isAgentName(agent)) continue;
    for (const fault of faults) {
      const started = performance.now();
      console.error(`# ${agent} ${fault} …`);
      const record = await collectOne(agent, fault, { retries, deadlineMs, messages: options.messages === "provider" ? "provider" : "neutral", extraEnv }).catch((error: unknown) => ({
        agent,
        fault,
        setup_error: error instanceof Error ? error.message : String(error),
      }));
      console.log(JSON.stringify(record));
      const summary = "ended" in record ? `${record.ended} ${record.error?.message ?? record.stop_reason ?? ""} (${record.twin.requests} requests, ${record.turn_ms} ms)` : record.setup_error;
      console.error(`# ${agent} ${fault}: ${summary.slice(0, 200)} [${Math.round((performance.now() - started) / 1000)} s]`);
    }
  }
}

if (import.meta.main) await main();
