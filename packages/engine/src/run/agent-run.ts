import { basename, join } from "node:path";
import type { Usage } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { runAgentSession, type SessionEnd, type SessionOutcome } from "../acp/agent-session.ts";
import type { EventSink, FinishedToolCall } from "../acp/event-mapper.ts";
import type { LiveSession } from "../acp/live-session.ts";
import type { AgentCommand } from "../acp/agent-process.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import type { ProxyWiring } from "../agents/proxy-wiring.ts";
import { Conductor, type ConductAgent } from "../conduct/conductor.ts";
import type { RunLimits } from "../conduct/limits.ts";
import { workspaceHasChange } from "../conduct/output-check.ts";
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "../conduct/retry-policy.ts";
import { isBatonError } from "../errors.ts";
import type { PermissionRule } from "../permissions/policy.ts";
import type { Redactor } from "../redaction/redactor.ts";
import { TraceStore } from "../trace/trace-store.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { PeopleChannel, PeopleSettings } from "../input/people-channel.ts";
import type { AgentIsolationMode } from "../isolation/user-namespace.ts";
import type { RunSink } from "./run-sink.ts";
import type { AgentSandbox, ProxyRelay } from "../sandbox/prepare-sandbox.ts";

/** One agent as a run starts it: its name, command, session setup and the conductor's facts from its registry entry. */
export type AgentToRun = {
  agentName: string;
  /** The agent's command; it runs in the workspace. */
  command: Omit<AgentCommand, "cwd">;
  setup?: SessionSetup | undefined;
  agent?: ConductAgent | undefined;
  fallbackModel?: string | undefined;
  /** How it is pointed at the inference proxy, when the run has one (its entry's `proxy`). */
  proxyWiring?: ProxyWiring | undefined;
};

/** What every agent session of a run shares: its limits, rules, trace caps and clocks. */
export type AgentRunSettings = {
  rules: readonly PermissionRule[];
  builtinRules?: boolean | undefined;
  maxOutputChars?: number | undefined;
  cancelGraceMs: number;
  limits?: RunLimits | undefined;
  retry?: RetrySchedule | undefined;
  requireOutput?: "change" | "none" | undefined;
  redactor: Redactor;
  /** `[isolation] agent`: the agent in a user namespace of its own (the default), or not. */
  isolation?: AgentIsolationMode | undefined;
  /** `[sandbox] kind = "bwrap"`: each agent in a sandbox of its own (checked before the run). */
  sandbox?: AgentSandbox | undefined;
  /** How a sandboxed agent reaches the run's inference proxy (set by the run when it has one). */
  proxyRelay?: (() => Promise<ProxyRelay>) | undefined;
  now: () => Date;
  version: string;
  /** Limits on people's inputs (`baton steer`) and how long a permission question waits for a person. */
  peopleSettings?: PeopleSettings | undefined;
  /** The run's people (opened by the run from `peopleSettings`): their inputs, their answers to `ask` rules' questions. */
  people?: PeopleChannel | undefined;
  /** A CI job's step summary file (`$GITHUB_STEP_SUMMARY`): the run's bounded transcript is appended to it at its end. */
  stepSummaryFile?: string | undefined;
};

/** What starts one agent session in a run: where it logs, how it is set up, where it works. */
export type AgentSessionRun = { dir: string; settings: AgentRunSettings; agent: AgentToRun; workspace: Workspace; signal: AbortSignal };

/** The conductor of one prompt: the run's limits, retries and watches, on `sink`. */
export function newConductor(sink: RunSink, run: AgentSessionRun & { prompt: string; startedAt: number; promptReason?: "task" | "fix" }): Conductor {
  const { settings, agent } = run;
  return new Conductor(
    definedFields({
      task: run.prompt,
      taskReason: run.promptReason,
      sink,
      limits: settings.limits ?? {},
      retry: settings.retry ?? DEFAULT_RETRY_SCHEDULE,
      agent: agent.agent ?? { notices: false, provider_error_prefixes: [] },
      fallbackModel: agent.fallbackModel,
      hasOutput: settings.requireOutput === "change" ? () => workspaceHasChange(run.workspace) : undefined,
      cancelGraceMs: settings.cancelGraceMs,
      signal: run.signal,
      startedAt: run.startedAt,
      inputs: settings.people?.inputs,
    }),
  );
}

/**
 * Starts one agent session and hands it to `conduct`; returns how it ended. Baton's own
 * failures become a failed outcome: this never throws for what an agent did.
 */
export async function runAgentSessionSafely(
  sink: EventSink,
  run: AgentSessionRun,
  drive: { conduct: (live: LiveSession) => Promise<SessionEnd>; onToolFinished: (call: FinishedToolCall) => void },
): Promise<SessionOutcome> {
  const { settings, agent } = run;
  try {
    return await runAgentSession(
      definedFields({
        agentName: agent.agentName,
        // The run's directory is named after its id: the agent's processes carry it (see agent-tree-tag.ts).
        command: { ...agent.command, cwd: run.workspace.path, runId: basename(run.dir) },
        isolation: settings.isolation,
        sandbox: settings.sandbox === undefined ? undefined : { sandbox: settings.sandbox, relay: settings.proxyRelay },
        conduct: drive.conduct,
        onToolFinished: drive.onToolFinished,
        sink,
        redactor: settings.redactor,
        transcriptPath: join(run.dir, "acp.jsonl"),
        rules: settings.rules,
        builtinRules: settings.builtinRules !== false,
        asker: settings.people?.asker,
        questions: settings.people?.questions,
        trace: new TraceStore(definedFields({ runDir: run.dir, redactor: settings.redactor, maxChars: settings.maxOutputChars })),
        cancelGraceMs: settings.cancelGraceMs,
        signal: run.signal,
        now: settings.now,
        clientVersion: settings.version,
        setup: agent.setup,
      }),
    );
  } catch (error) {
    const info = isBatonError(error)
      ? { code: error.code, message: error.toLine() }
      : { code: "internal", message: `Baton failed while running the agent: ${error instanceof Error ? error.message : String(error)}` };
    return { kind: "failed", error: info, usage: EMPTY_USAGE, turns: 0 };
  }
}

const EMPTY_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/**
 * Runs one prompt through one agent session under the conductor (limits, retries, stalls,
 * loops, hand-back) and returns how it ended.
 */
export function runConductedAgent(sink: RunSink, run: AgentSessionRun & { prompt: string; startedAt: number }): Promise<SessionOutcome> {
  const conductor = newConductor(sink, run);
  return runAgentSessionSafely(sink, run, { conduct: (live) => conductor.conduct(live), onToolFinished: (call) => conductor.onToolFinished(call) });
}
