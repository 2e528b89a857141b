import { isFinalStatus, type Envelope, type RunState } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import type { PersonAnswer } from "../permissions/person-answer.ts";

/** A permission question that waits for a person, as its `permission.requested` put it. */
export type OpenQuestion = {
  call: string;
  session: string;
  tool: string;
  options: Array<{ id: string; kind: string; name: string }>;
  rule?: string;
  timeoutMs?: number;
  seq?: number;
  at: string;
};

/** What a run's log says of its permission questions for people: those open, and how each answered one was. */
export type QuestionLog = { open: Map<string, OpenQuestion>; resolved: Map<string, Record<string, unknown>> };

/** Folds a run's events into its permission questions for people. */
export function questionLog(events: Iterable<Envelope>): QuestionLog {
  const log: QuestionLog = { open: new Map(), resolved: new Map() };
  for (const event of events) foldQuestion(log, event);
  return log;
}

/** Applies one event to a question log (for readers that follow a run). */
export function foldQuestion(log: QuestionLog, event: Envelope): void {
  const data = event.data as Record<string, unknown>;
  const call = typeof data["call"] === "string" ? data["call"] : undefined;
  if (call === undefined) return;
  if (event.type === "permission.requested" && data["awaiting"] === "person") {
    const options = Array.isArray(data["options"]) ? (data["options"] as OpenQuestion["options"]) : [];
    const question: OpenQuestion = { call, session: String(data["session"] ?? ""), tool: String(data["tool"] ?? ""), options, at: event.at };
    if (typeof data["rule"] === "string") question.rule = data["rule"];
    if (typeof data["timeout_ms"] === "number") question.timeoutMs = data["timeout_ms"];
    if (event.seq !== undefined) question.seq = event.seq;
    log.open.set(call, question);
    log.resolved.delete(call);
  } else if (event.type === "permission.resolved" && log.open.has(call)) {
    log.open.delete(call);
    log.resolved.set(call, data);
  }
}

/**
 * Checks a person's answer against the run before anything is written: the run must be
 * running, the call must wait for a person (an answered one is a conflict naming who answered),
 * and a chosen option must be one the agent offered, of the answer's kind. Throws a one-line
 * BatonError otherwise.
 */
export function checkPersonAnswer(state: RunState, log: QuestionLog, answer: Pick<PersonAnswer, "call" | "action" | "optionId">): OpenQuestion {
  const label = `run ${state.number ?? ""}`.trim();
  if (state.status !== "running") {
    throw new BatonError(isFinalStatus(state.status) ? "run_ended" : "not_running", `${label} is ${state.status}: it has no question waiting`, { hint: `see it with baton show ${state.number ?? ""}` });
  }
  const question = log.open.get(answer.call);
  if (question === undefined) {
    const resolved = log.resolved.get(answer.call);
    if (resolved !== undefined) throw answeredAlready(label, answer.call, resolved);
    const waiting = [...log.open.keys()];
    throw new BatonError("unknown_call", `${label} has no permission question for call "${answer.call}"`, {
      hint: waiting.length === 0 ? "nothing waits for an answer now" : `waiting: ${waiting.join(", ")}`,
    });
  }
  if (answer.optionId !== undefined) {
    const option = question.options.find((o) => o.id === answer.optionId);
    const fits = option !== undefined && (answer.action === "allow" ? option.kind.startsWith("allow") : option.kind.startsWith("reject"));
    if (!fits) {
      const offered = question.options.filter((o) => (answer.action === "allow" ? o.kind.startsWith("allow") : o.kind.startsWith("reject")));
      throw new BatonError("usage", `"${answer.optionId}" is not an option to ${answer.action} call ${answer.call}`, {
        hint: offered.length === 0 ? "the agent offered none; leave --option out" : `choose one of: ${offered.map((o) => `${o.id} (${o.name})`).join(", ")}`,
      });
    }
  }
  return question;
}

/** The conflict a second answer meets: the question was answered, by whom and how. */
export function answeredAlready(label: string, call: string, resolved: Record<string, unknown>): BatonError {
  const who = typeof resolved["who"] === "string" ? resolved["who"] : resolved["by"] === "human" ? "a person" : `the policy (${String(resolved["rule"] ?? "")})`;
  return new BatonError("answer_conflict", `${label}: call ${call} was answered already (${String(resolved["decision"] ?? "")} by ${who}); this answer changed nothing`, {
    hint: "nothing to do; see it with baton events",
  });
}
