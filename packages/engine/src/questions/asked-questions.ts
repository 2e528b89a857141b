import { isFinalStatus, type Envelope, type RunState } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { checkContent } from "./form-content.ts";
import type { QuestionField } from "./form-fields.ts";
import type { PersonReply } from "./question-reply.ts";

/** A question of the agent's that waits for a person, as its `question.asked` put it. */
export type OpenAsked = {
  id: string;
  session: string;
  call?: string;
  message: string;
  fields: QuestionField[];
  timeoutMs?: number;
  seq?: number;
  at: string;
};

/** What a run's log says of the agent's questions for people: those open, and how each answered one was. */
export type AskedLog = { open: Map<string, OpenAsked>; answered: Map<string, Record<string, unknown>> };

/** Folds a run's events into the agent's questions. */
export function askedLog(events: Iterable<Envelope>): AskedLog {
  const log: AskedLog = { open: new Map(), answered: new Map() };
  for (const event of events) foldAsked(log, event);
  return log;
}

/** Applies one event to an asked log (for readers that follow a run). */
export function foldAsked(log: AskedLog, event: Envelope): void {
  const data = event.data as Record<string, unknown>;
  const id = typeof data["id"] === "string" ? data["id"] : undefined;
  if (id === undefined) return;
  if (event.type === "question.asked" && data["awaiting"] === "person") {
    const question: OpenAsked = {
      id,
      session: String(data["session"] ?? ""),
      message: typeof data["message"] === "string" ? data["message"] : "",
      fields: Array.isArray(data["fields"]) ? (data["fields"] as QuestionField[]) : [],
      at: event.at,
    };
    if (typeof data["call"] === "string") question.call = data["call"];
    if (typeof data["timeout_ms"] === "number") question.timeoutMs = data["timeout_ms"];
    if (event.seq !== undefined) question.seq = event.seq;
    log.open.set(id, question);
    log.answered.delete(id);
  } else if (event.type === "question.answered") {
    log.open.delete(id);
    log.answered.set(id, data);
  }
}

/**
 * Checks a person's reply against the run before anything is written: the run must be running,
 * the question must wait for a person (an answered one is a conflict naming how it was
 * answered), and an `accept` must fill the form as its fields say. Returns the reply with its
 * content as it goes to the agent; throws a one-line BatonError otherwise.
 */
export function checkReply(state: RunState, log: AskedLog, reply: PersonReply): PersonReply {
  const label = `run ${state.number ?? ""}`.trim();
  if (state.status !== "running") {
    throw new BatonError(isFinalStatus(state.status) ? "run_ended" : "not_running", `${label} is ${state.status}: it has no question waiting`, { hint: `see it with baton show ${state.number ?? ""}` });
  }
  const question = log.open.get(reply.question);
  if (question === undefined) {
    const answered = log.answered.get(reply.question);
    if (answered !== undefined) throw repliedAlready(label, reply.question, answered);
    const waiting = [...log.open.keys()];
    throw new BatonError("unknown_question", `${label} has no question "${reply.question}" waiting`, {
      hint: waiting.length === 0 ? "nothing waits for an answer now" : `waiting: ${waiting.join(", ")}`,
    });
  }
  if (reply.action !== "accept") {
    const { content: _content, ...rest } = reply;
    return rest;
  }
  return { ...reply, content: checkContent(reply.question, question.fields, reply.content ?? {}) };
}

/** The conflict a second reply meets: the question was answered, how and by whom. */
export function repliedAlready(label: string, question: string, answered: Record<string, unknown>): BatonError {
  const who = typeof answered["who"] === "string" ? answered["who"] : answered["by"] === "human" ? "a person" : `the policy (${String(answered["rule"] ?? "")})`;
  return new BatonError("answer_conflict", `${label}: question ${question} was answered already (${String(answered["action"] ?? "")} by ${who}); this answer changed nothing`, {
    hint: "nothing to do; see it with baton events",
  });
}
