import { definedFields } from "@baton/protocol/core";
import { isBatonError } from "../errors.ts";
import { checkContent } from "./form-content.ts";
import { formFields, type FieldValue } from "./form-fields.ts";
import type { QuestionAsker } from "./question-asker.ts";
import { newQuestionId, type PersonReply } from "./question-reply.ts";

/** `question.answered.rule` for a question nobody answered in time: declined. */
export const QUESTION_TIMEOUT_RULE = "question:timeout";
/** `question.answered.rule` for a question an unattended run (`--yes`, a worker) was asked: declined at once. */
export const QUESTION_UNATTENDED_RULE = "question:unattended";
/** `question.answered.rule` for a question Baton cannot put to a person (a URL, a field it cannot fill): declined. */
export const QUESTION_UNSUPPORTED_RULE = "question:unsupported";
/** `question.answered.rule` for a question asked where no person can answer: declined. */
export const QUESTION_NO_PERSON_RULE = "question:no-person";
/** `question.answered.rule` for a question whose turn Baton cancelled: cancelled. */
export const QUESTION_CANCELLED_RULE = "question:turn-cancelled";
/** `question.answered.rule` for a question the agent withdrew (`$/cancel_request`), or whose session ended: cancelled. */
export const QUESTION_WITHDRAWN_RULE = "question:withdrawn";

/** Why a question ended before anyone answered it: the rule and reason `question.answered` records. */
export type QuestionEnd = { rule: string; reason: string };

/** What the desk records through: the run's sink, which redacts what it logs. */
export type QuestionSink = { append(type: string, data: Record<string, unknown>): void };

/** An agent's elicitation, as ACP's `elicitation/create` carries it (only what Baton reads). */
export type ElicitationLike = { mode: string; message: string; requestedSchema?: unknown; toolCallId?: string | null };

/** The answer to the agent: ACP's `CreateElicitationResponse`. */
export type ElicitationAnswer = { action: "accept"; content: Record<string, FieldValue> } | { action: "decline" } | { action: "cancel" };

/**
 * Answers the questions an agent asks through ACP elicitation: records `question.asked`, puts a
 * form to a person (through the run's asker) for at most its timeout, and records
 * `question.answered` with what the agent is told. Fail closed: a question nobody answers in
 * time, one an unattended run is asked, and one Baton cannot put to a person are declined; one
 * whose turn is cancelled is cancelled.
 */
export class QuestionDesk {
  readonly #sink: QuestionSink;
  readonly #asker: QuestionAsker | undefined;
  readonly #newId: () => string;
  readonly #redact: (text: string) => string;
  readonly #open = new Set<Promise<unknown>>();

  /**
   * `redact`: applied to the text a person gives before the agent gets it, as steering text is,
   * so the agent gets what the log records.
   */
  constructor(options: { sink: QuestionSink; asker?: QuestionAsker | undefined; newId?: () => string; redact?: (text: string) => string }) {
    this.#sink = options.sink;
    this.#asker = options.asker;
    this.#newId = options.newId ?? newQuestionId;
    this.#redact = options.redact ?? ((text) => text);
  }

  /**
   * Whether the agent is told Baton takes form questions: only where a person can answer them.
   * Claude Code offers its model the AskUserQuestion tool only then, so an unattended run's
   * model is not tempted to ask; an agent that asks anyway is declined at once.
   */
  get takesForms(): boolean {
    return this.#asker !== undefined && !this.#asker.unattended;
  }

  /**
   * Asks one question and settles with the agent's answer. `ended` settles, with why, when the
   * question ends unanswered (its turn cancelled, the agent withdrew it, the session ended);
   * `"now"`: its turn is being cancelled already.
   */
  answer(session: string, request: ElicitationLike, ended: Promise<QuestionEnd> | "now"): Promise<ElicitationAnswer> {
    const answering = this.#answer(session, request, ended);
    this.#open.add(answering);
    void answering.finally(() => this.#open.delete(answering)).catch(() => undefined);
    return answering;
  }

  /** Settles once every question asked so far is answered and recorded (before `agent.finished`). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#open]);
  }

  #redacted(content: Record<string, FieldValue>): Record<string, FieldValue> {
    return Object.fromEntries(Object.entries(content).map(([name, value]) => [name, redactValue(value, this.#redact)]));
  }

  async #answer(session: string, request: ElicitationLike, cancelled: Promise<QuestionEnd> | "now"): Promise<ElicitationAnswer> {
    const id = this.#newId();
    const form = request.mode === "form" ? formFields(request.requestedSchema) : { fields: [], unfillable: `Baton puts form questions to people, not ${request.mode} ones` };
    const asked = definedFields({ session, id, call: request.toolCallId ?? undefined, mode: request.mode, message: request.message, fields: form.fields });
    const answered = (answer: ElicitationAnswer, how: Record<string, unknown>): ElicitationAnswer => {
      this.#sink.append("question.answered", { ...definedFields({ session, id, call: request.toolCallId ?? undefined, action: answer.action, content: answer.action === "accept" ? answer.content : undefined }), ...how });
      return answer;
    };
    const asker = this.#asker;
    const atOnce = (rule: string, reason: string | undefined, action: "decline" | "cancel" = "decline") => {
      this.#sink.append("question.asked", asked);
      return answered({ action }, definedFields({ by: "policy", rule, reason }));
    };
    if (cancelled === "now") return atOnce(QUESTION_CANCELLED_RULE, "the turn was cancelled", "cancel");
    if (form.unfillable !== undefined) return atOnce(QUESTION_UNSUPPORTED_RULE, form.unfillable);
    if (asker === undefined) return atOnce(QUESTION_NO_PERSON_RULE, "no person can answer this run");
    if (asker.unattended) return atOnce(QUESTION_UNATTENDED_RULE, "the run is unattended");

    this.#sink.append("question.asked", definedFields({ ...asked, awaiting: "person", timeout_ms: asker.timeoutMs }));
    const fits = (reply: PersonReply) => reply.action !== "accept" || fitsForm(id, form.fields, reply.content ?? {});
    let end: QuestionEnd = { rule: QUESTION_WITHDRAWN_RULE, reason: "the question ended" };
    const verdict = await asker.ask(id, fits, cancelled.then((why) => (end = why)));
    if (verdict.kind === "cancelled") return answered({ action: "cancel" }, { by: "policy", rule: end.rule, reason: end.reason });
    if (verdict.kind === "timeout") return answered({ action: "decline" }, { by: "policy", rule: QUESTION_TIMEOUT_RULE, reason: "nobody answered in time" });
    const { reply } = verdict;
    const answer: ElicitationAnswer = reply.action === "accept" ? { action: "accept", content: this.#redacted(checkContent(id, form.fields, reply.content ?? {})) } : { action: reply.action };
    return answered(answer, definedFields({ by: "human", who: reply.who, via: reply.via, reason: reply.reason }));
  }
}

function redactValue(value: FieldValue, redact: (text: string) => string): FieldValue {
  if (typeof value === "string") return redact(value);
  return Array.isArray(value) ? value.map((item) => redact(item)) : value;
}

function fitsForm(id: string, fields: Parameters<typeof checkContent>[1], content: unknown): boolean {
  try {
    checkContent(id, fields, content);
    return true;
  } catch (error) {
    if (isBatonError(error)) return false;
    throw error;
  }
}
