import type { Usage } from "@baton/protocol";
import type { SessionEnd, SessionOutcome } from "../acp/agent-session.ts";
import type { EventSink } from "../acp/event-mapper.ts";
import type { LiveSession } from "../acp/live-session.ts";
import type { Conductor } from "../conduct/conductor.ts";
import type { AgentSessionRun, AgentToRun, newConductor } from "../run/agent-run.ts";
import type { RunSink } from "../run/run-sink.ts";

/** One stage's prompt on a thread, and how its caller hears the end of it. */
type ThreadPrompt = { sink: RunSink; prompt: string; signal: AbortSignal; resolve: (outcome: SessionOutcome) => void };

/**
 * The agent sessions of a workflow run that stages share by `thread_id`: the first stage of a
 * thread starts the session, later ones send their prompt to it, each under a conductor of its
 * own and with its events scoped to its own stage. A session ends when a stage on it does not
 * complete (failed, stopped, cancelled: it is not used again) or when the run's process is
 * done with it ({@link close}); its `agent.finished` is then recorded outside any stage.
 */
export class AgentThreads {
  readonly #run: Omit<AgentSessionRun, "agent">;
  readonly #outside: RunSink;
  readonly #startedAt: number;
  readonly #threads = new Map<string, AgentThread>();

  constructor(run: Omit<AgentSessionRun, "agent">, options: { outside: RunSink; startedAt: number }) {
    this.#run = run;
    this.#outside = options.outside;
    this.#startedAt = options.startedAt;
  }

  /** Sends a stage's prompt on `thread` (a session of `agent`, started by the first prompt). */
  prompt(thread: string, agent: AgentToRun, stage: { sink: RunSink; prompt: string; signal: AbortSignal }): Promise<SessionOutcome> {
    const key = `${thread}\u0000${agent.agentName}`;
    let open = this.#threads.get(key);
    if (open === undefined || open.ended) {
      open = new AgentThread({ ...this.#run, agent }, this.#startedAt, this.#outside);
      this.#threads.set(key, open);
    }
    return open.submit(stage);
  }

  /** Ends every session still open. */
  async close(): Promise<void> {
    await Promise.all([...this.#threads.values()].map((thread) => thread.close()));
    this.#threads.clear();
  }
}

class AgentThread {
  readonly #run: AgentSessionRun;
  readonly #startedAt: number;
  readonly #outside: RunSink;
  /** The sink the session's events go to: the stage whose prompt runs, or outside any stage. */
  readonly #sink: SwitchSink;
  readonly #waiting: ThreadPrompt[] = [];
  #wake: (() => void) | undefined;
  #conductor: Conductor | undefined;
  #newConductor: typeof newConductor | undefined;
  #closing = false;
  #session: Promise<SessionOutcome> | undefined;
  /** The prompt whose end also ended the session: answered once the session is down. */
  #last: ThreadPrompt | undefined;
  ended = false;

  constructor(run: AgentSessionRun, startedAt: number, outside: RunSink) {
    this.#run = run;
    this.#startedAt = startedAt;
    this.#outside = outside;
    this.#sink = new SwitchSink(outside);
  }

  submit(stage: { sink: RunSink; prompt: string; signal: AbortSignal }): Promise<SessionOutcome> {
    return new Promise((resolve) => {
      this.#waiting.push({ ...stage, resolve });
      this.#wake?.();
      // Loaded on first use, like the agent stage: a run that starts no session never loads the ACP client.
      this.#session ??= import("../run/agent-run.ts").then(({ newConductor, runAgentSessionSafely }) => {
        this.#newConductor = newConductor;
        return runAgentSessionSafely(this.#sink, this.#run, {
          conduct: (live) => this.#serve(live),
          onToolFinished: (call) => this.#conductor?.onToolFinished(call),
        }).then((outcome) => this.#ended(outcome));
      });
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#wake?.();
    await this.#session;
  }

  /** The session's life: one prompt after another, until one does not complete or the run closes the thread. */
  async #serve(live: LiveSession): Promise<SessionEnd> {
    let last: SessionEnd = { kind: "completed", stopReason: "end_turn" };
    for (;;) {
      const next = await this.#next();
      if (next === undefined) {
        this.#sink.target = this.#outside;
        return last;
      }
      this.#sink.target = next.sink;
      const conductor = this.#newConductor!(next.sink, { ...this.#run, signal: next.signal, prompt: next.prompt, startedAt: this.#startedAt });
      this.#conductor = conductor;
      const before = { ...next.sink.state.usage };
      last = await conductor.conduct(live);
      this.#conductor = undefined;
      if (last.kind !== "completed") {
        // The session goes down with this stage: its end (agent.finished) belongs to it.
        this.#last = next;
        return last;
      }
      next.resolve({ ...last, usage: usageSince(before, next.sink.state.usage), turns: 0, session: live.id });
      this.#sink.target = this.#outside;
    }
  }

  #next(): Promise<ThreadPrompt | undefined> {
    const queued = this.#waiting.shift();
    if (queued !== undefined || this.#closing) return Promise.resolve(queued);
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve(this.#waiting.shift());
      };
    });
  }

  /** The session is down: the prompt that ended it, and any still waiting, hear how. */
  #ended(outcome: SessionOutcome): SessionOutcome {
    this.ended = true;
    this.#last?.resolve(outcome);
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(outcome);
    return outcome;
  }
}

/** An event sink whose target can change: a shared session's events go to the stage it serves. */
class SwitchSink implements EventSink {
  target: EventSink;

  constructor(target: EventSink) {
    this.target = target;
  }

  append(type: string, data: Record<string, unknown>): void {
    this.target.append(type, data);
  }

  publish(type: string, data: Record<string, unknown>): void {
    this.target.publish(type, data);
  }
}

function usageSince(before: Required<Usage>, after: Required<Usage>): Usage {
  return { input_tokens: after.input_tokens - before.input_tokens, output_tokens: after.output_tokens - before.output_tokens };
}
