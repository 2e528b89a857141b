import * as acp from "@agentclientprotocol/sdk";
import type { SessionSetup } from "../agents/agent-launch.ts";
import type { AgentProcess } from "./agent-process.ts";
import type { AcpEventMapper } from "./event-mapper.ts";
import { switchModel } from "./session-setup.ts";
import { errorText } from "./error-text.ts";
import { definedFields } from "@baton/protocol/core";

/** Why a prompt is sent: the protocol's `turn.started.reason`. */
export type TurnReason = "task" | "fix" | "handback" | "reminder" | "resend" | "steer";

/** Turns that do the task's work (the task, a validation fix, a resend, a person's steer): watched for stalls and notices. */
export function isWorkTurn(reason: TurnReason): boolean {
  return reason === "task" || reason === "fix" || reason === "resend" || reason === "steer";
}

/** How one prompt turn ended. */
export type TurnEnd =
  | { kind: "completed"; stopReason: string }
  /** The agent answered the prompt with a JSON-RPC error. */
  | { kind: "error"; error: { code: number; message: string; data?: unknown } }
  /** The agent's process ended before it answered. */
  | { kind: "exited"; error: { code: string; message: string }; stderr: string[] };

/** One prompt turn on its way: its number and how it will end. */
export type ActiveTurn = { number: number; done: Promise<TurnEnd> };

/**
 * An agent session that is up (initialized, session created and set up): what the conductor of
 * a task needs to send turns, cancel them, tell the agent things mid-turn and switch its model.
 * It owns no policy: when to resend, hand back or give up is the conductor's.
 */
export class LiveSession {
  readonly id: string;
  readonly agent: AgentProcess;
  readonly #ctx: acp.ClientContext;
  readonly #mapper: AcpEventMapper;
  readonly #setup: SessionSetup | undefined;
  readonly #activity: () => number;
  #model: string | undefined;
  /** From `session/cancel` until the next prompt: the running turn is being cancelled. */
  #cancelling = false;
  /** Told when the running turn is cancelled: questions waiting for a person end with it. */
  readonly #onCancelling = new Set<() => void>();

  constructor(options: {
    id: string;
    ctx: acp.ClientContext;
    agent: AgentProcess;
    mapper: AcpEventMapper;
    setup?: SessionSetup;
    model?: string;
    /** When anything last arrived from the agent (monotonic ms). */
    lastActivity: () => number;
  }) {
    this.id = options.id;
    this.#ctx = options.ctx;
    this.agent = options.agent;
    this.#mapper = options.mapper;
    this.#setup = options.setup;
    this.#model = options.model;
    this.#activity = options.lastActivity;
  }

  /** The model the agent last reported. */
  get model(): string | undefined {
    return this.#model;
  }

  /** Monotonic ms of the last message from the agent. */
  get lastActivity(): number {
    return this.#activity();
  }

  /** Tool calls the agent has started and not finished. */
  get openToolCalls(): number {
    return this.#mapper.openToolCalls;
  }

  /**
   * Whether Baton has cancelled the running turn (and sent no prompt since): a permission the
   * agent asks for now belongs to a cancelled turn and is answered `cancelled`, as ACP requires.
   */
  get cancelling(): boolean {
    return this.#cancelling;
  }

  /**
   * Marks the running turn as being cancelled from now on, ahead of {@link cancelTurn}: the
   * conductor calls it in the same synchronous stretch in which it decides to end the turn, so
   * that a permission request read right after (answered in the tap's own call) is not granted.
   */
  markCancelling(): void {
    if (this.#cancelling) return;
    this.#cancelling = true;
    for (const listener of [...this.#onCancelling]) listener();
  }

  /** Settles when Baton cancels the running turn (at once if it is being cancelled). */
  whenCancelling(): Promise<void> {
    if (this.#cancelling) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#onCancelling.delete(done);
        resolve();
      };
      this.#onCancelling.add(done);
    });
  }

  /** What the agent said in the current (or last) turn. */
  get turnWords(): string {
    return this.#mapper.turnWords;
  }

  /** Sends a prompt: `turn.started` with `reason` is logged first. */
  prompt(text: string, reason: TurnReason): ActiveTurn {
    this.#cancelling = false;
    const number = this.#mapper.beginTurn(reason);
    const request = this.#ctx.request(acp.methods.agent.session.prompt, { sessionId: this.id, prompt: [{ type: "text", text }] });
    const exited = this.agent.exited.then(() => "exited" as const);
    const done = Promise.race([request.then((value) => ({ ok: value }), (error: unknown) => ({ error })), exited]).then(async (settled): Promise<TurnEnd> => {
      if (settled !== "exited" && "ok" in settled) return { kind: "completed", stopReason: settled.ok.stopReason };
      if (settled !== "exited" && settled.error instanceof acp.RequestError) {
        return { kind: "error", error: { code: settled.error.code, message: settled.error.message, ...definedFields({ data: settled.error.data }) } };
      }
      // The connection broke: the agent is exiting (give it a moment to be seen gone).
      await Promise.race([this.agent.exited, delay(500)]);
      if (this.agent.exit !== undefined) return { kind: "exited", error: this.agent.exitError(`during turn ${number}`), stderr: this.agent.stderrTail() };
      const message = settled === "exited" ? "the agent's connection ended" : errorText(settled.error);
      return { kind: "error", error: { code: -32603, message } };
    });
    return { number, done };
  }

  /**
   * Tells the agent something while a turn runs, in a prompt of its own (`turn.started` reason
   * `notice`). Only for agents whose entry says they take one; its answer is not waited for.
   */
  notice(text: string): number {
    const number = this.#mapper.beginTurn("notice");
    this.#ctx.request(acp.methods.agent.session.prompt, { sessionId: this.id, prompt: [{ type: "text", text }] }).catch(() => {});
    return number;
  }

  /** Asks the agent to end the running turn (`session/cancel`). */
  async cancelTurn(): Promise<void> {
    // Before the notification is on its way: a permission request that arrives meanwhile is
    // for the turn being cancelled.
    this.markCancelling();
    await this.#ctx.notify(acp.methods.agent.session.cancel, { sessionId: this.id }).catch(() => {});
  }

  /**
   * Cancels the running turn and waits up to `graceMs` for the agent to end it. Returns how it
   * ended, or undefined when the agent did not answer in time. Tool calls left open are closed.
   */
  async cancelAndSettle(turn: ActiveTurn, graceMs: number): Promise<TurnEnd | undefined> {
    await this.cancelTurn();
    const end = await Promise.race([turn.done, delay(graceMs).then(() => undefined)]);
    this.#mapper.closeOpen("cancelled");
    return end;
  }

  /** Ends whatever is open (tool calls, the turn) as failed or cancelled. */
  closeOpen(status: "failed" | "cancelled", error?: { code: string; message: string }): void {
    this.#mapper.closeOpen(status, error);
  }

  /**
   * Switches the agent to another model mid-session, the way its entry delivers models, and
   * returns the model the agent then reports (or why it could not).
   */
  async switchModel(model: string): Promise<{ model?: string; failure?: string }> {
    const result = await switchModel(this.#ctx, this.id, model, this.#setup?.modelChoice);
    if (result.model !== undefined) this.#model = result.model;
    return result;
  }

}


function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
