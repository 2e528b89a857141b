import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { BatonError, requestCancel } from "@baton/engine";
import { checkPersonAnswer, checkReply, leaveAnswer, leaveReply, newInputId, readAnswer, readReply, repliedAlready, requestInput, type AskedLog, type PersonReply, type QuestionLog } from "@baton/engine/input";
import type { RunSummary, Store } from "@baton/engine/store";
import type { Envelope, RunState } from "@baton/protocol/core";
import { checkDecision } from "../commands/gate-decision.ts";
import type { ToolCallRow } from "./run-panels.ts";

/** A person's decision at the gate a run waits at, as the terminal UI makes one. */
export type TuiDecision = { kind: "approve" | "reject" | "answer"; value?: string };

/**
 * What the terminal UI reads and does: the local store ({@link storeSource}), or a `baton serve`
 * URL (`httpSource`). Every action is checked against the run as the UI folded it (and again
 * by whoever takes it), and its outcome comes back on the run's stream.
 */
export type TuiSource = {
  listRuns(): Promise<RunSummary[]>;
  /** Every event of the run, then live ones, until `signal` aborts or the run ends. */
  follow(runId: string, signal: AbortSignal): AsyncIterable<Envelope>;
  cancel(runId: string): Promise<void>;
  answer(runId: string, state: RunState, questions: QuestionLog, call: string, action: "allow" | "deny"): Promise<void>;
  /** Answers a question the agent asked (its form filled, or declined). */
  reply(runId: string, state: RunState, asked: AskedLog, reply: Omit<PersonReply, "who" | "via">): Promise<void>;
  /** Queues text for the run's agent (`baton steer`). */
  steer(runId: string, state: RunState, text: string): Promise<void>;
  /** Answers the gate the run waits at, and resumes it. */
  decide(runId: string, state: RunState, decision: TuiDecision): Promise<void>;
  /** The whole output of a completed tool call, from the run's trace store. */
  readOutput(runId: string, call: ToolCallRow): Promise<string>;
};

export type StoreSourceOptions = {
  /** Who answers from this terminal: the OS user. */
  who: string;
  /** Records a gate decision and resumes the run in the background (`baton approve … --detach`). */
  resume: (runId: string, decision: TuiDecision & { by: string; via: "terminal" }) => Promise<void>;
};

/** The source of a local project: its store, and requests left in its runs' folders. */
export function storeSource(store: Store, options: StoreSourceOptions): TuiSource {
  const { who } = options;
  return {
    listRuns: async () => (await store.listRuns()).reverse(),
    follow: (runId, signal) => store.followRun(runId, { after: 0, signal }),
    cancel: (runId) => requestCancel(store.runDir(runId), { by: "cli", reason: "cancelled from baton tui" }),
    answer: async (runId, state, questions, call, action) => {
      checkPersonAnswer(state, questions, { call, action });
      const dir = store.runDir(runId);
      if ((await leaveAnswer(dir, { call, action, who, via: "terminal" })) === "exists") {
        const first = await readAnswer(dir, call);
        throw new BatonError("answer_conflict", `call ${call} was answered already (${first?.action ?? "answered"} by ${first?.who ?? "someone"}); the first answer stands`);
      }
    },
    reply: async (runId, state, asked, reply) => {
      const checked = checkReply(state, asked, { ...reply, who, via: "terminal" });
      const dir = store.runDir(runId);
      if ((await leaveReply(dir, checked)) === "exists") {
        const first = await readReply(dir, reply.question);
        throw repliedAlready(`run ${state.number ?? ""}`, reply.question, { action: first?.action ?? "answered", who: first?.who ?? "someone" });
      }
    },
    steer: async (runId, state, text) => {
      checkSteer(state, text);
      await requestInput(store.runDir(runId), { id: newInputId(), by: who, text });
    },
    decide: async (runId, state, decision) => {
      checkDecision(state, `run ${state.number ?? ""}`, { ...decision, by: who, via: "terminal" });
      await options.resume(runId, { ...decision, by: who, via: "terminal" });
    },
    readOutput: async (runId, call) => {
      if (call.output_file === undefined) throw noOutput(call);
      const runDir = store.runDir(runId);
      const path = resolve(runDir, call.output_file);
      const rel = relative(runDir, path);
      // The path comes from the log: it must stay inside the run's folder.
      if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) throw new BatonError("bad_trace_path", `tool call ${call.call} names an output file outside its run`);
      return readFile(path, "utf8").catch((error: unknown) => {
        throw new BatonError("trace_missing", `the output of tool call ${call.call} is not in the trace store (${(error as Error).message})`);
      });
    },
  };
}

/** A run takes steering only while it runs, and only text that is not empty. */
export function checkSteer(state: RunState, text: string): void {
  if (text.trim() === "") throw new BatonError("usage", "the text to send is empty", { hint: "type a line for the agent, then Enter" });
  if (state.status !== "running") throw new BatonError("not_running", `run ${state.number ?? ""} is ${state.status}, so nothing can steer it`, { hint: state.status === "paused" ? "answer its gate: y approve, n reject, t answer" : "start a new run" });
}

export function noOutput(call: ToolCallRow): BatonError {
  return new BatonError("output_not_found", call.status === "running" ? `tool call ${call.call} has not completed yet` : `tool call ${call.call} left no output in the trace store`, { hint: "pick a completed call that has output" });
}
