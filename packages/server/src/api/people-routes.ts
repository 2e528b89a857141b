import {
  answeredAlready,
  askedLog,
  checkPersonAnswer,
  checkReply,
  leaveAnswer,
  leaveReply,
  newInputId,
  questionLog,
  readAnswer,
  readReply,
  repliedAlready,
  requestInput,
  type PersonAnswer,
  type PersonReply,
} from "@baton/engine/input";
import type { Store } from "@baton/engine/store";
import { applyEvent, initialRunState, isFinalStatus, type Envelope, type RunState } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";
import type { ServerApp } from "../http/server-app.ts";
import { allowRoute, denyRoute, replyRoute, sendInputRoute } from "./contract/people.ts";
import { resolveFresh } from "./resolve.ts";

export type PeopleRoutesOptions = { store: Store };

/** A run's summary, its folded state and its events: what an answer is checked against. */
async function readRunOf(store: Store, ref: string): Promise<{ run: Awaited<ReturnType<typeof resolveFresh>>; state: RunState; events: Envelope[] }> {
  const run = await resolveFresh(store, ref);
  const events: Envelope[] = [];
  const state = initialRunState();
  for await (const event of store.readRun(run.id)) {
    applyEvent(state, event);
    events.push(event);
  }
  return { run, state, events };
}

/**
 * `POST /api/runs/{ref}/input` (steer the running agent),
 * `POST /api/runs/{ref}/permissions/{call}/allow|deny` (answer a question an `ask` rule put to a
 * person) and `POST /api/runs/{ref}/questions/{id}` (answer a question the agent asked). Each is
 * checked against the run's events first and leaves a request for the run's process: 202, and
 * the run's stream shows what came of it (input.queued or input.rejected, permission.resolved,
 * question.answered).
 */
export function addPeopleRoutes(app: ServerApp, options: PeopleRoutesOptions): void {
  const { store } = options;

  app.openapi(sendInputRoute, async (c) => {
    const { text, by = "api" } = c.req.valid("json");
    const run = await resolveFresh(store, c.req.valid("param").ref);
    if (run.status !== "running") {
      throw apiError(isFinalStatus(run.status) ? "run_ended" : "not_running", `run ${run.number} is ${run.status}, so nothing can steer it`, "start a new run, or fork this one");
    }
    const id = newInputId();
    await requestInput(store.runDir(run.id), { id, by, text });
    return c.json({ input: { id, by }, run }, 202);
  });

  /** Leaves a person's answer for the run, once: the first answer wins. */
  const answerQuestion = async (ref: string, answer: PersonAnswer) => {
    const { run, state, events } = await readRunOf(store, ref);
    checkPersonAnswer(state, questionLog(events), answer);
    const dir = store.runDir(run.id);
    if ((await leaveAnswer(dir, answer)) === "exists") {
      const first = await readAnswer(dir, answer.call);
      throw answeredAlready(`run ${run.number}`, answer.call, { decision: first?.action ?? "answered", who: first?.who ?? "someone" });
    }
    return { answer: { call: answer.call, action: answer.action, by: answer.who }, run };
  };

  app.openapi(allowRoute, async (c) => {
    const { ref, call } = c.req.valid("param");
    const body = c.req.valid("json");
    const answer: PersonAnswer = { call, action: "allow", who: body.by ?? "api", via: body.via ?? "api" };
    if (body.option_id !== undefined) answer.optionId = body.option_id;
    if (body.always_for_run === true) answer.alwaysForRun = true;
    return c.json(await answerQuestion(ref, answer), 202);
  });

  app.openapi(denyRoute, async (c) => {
    const { ref, call } = c.req.valid("param");
    const body = c.req.valid("json");
    const answer: PersonAnswer = { call, action: "deny", who: body.by ?? "api", via: body.via ?? "api" };
    if (body.option_id !== undefined) answer.optionId = body.option_id;
    if (body.reason !== undefined) answer.reason = body.reason;
    return c.json(await answerQuestion(ref, answer), 202);
  });

  app.openapi(replyRoute, async (c) => {
    const { ref, question } = c.req.valid("param");
    const body = c.req.valid("json");
    const action = body.action ?? "accept";
    if (action !== "accept" && body.content !== undefined) throw apiError("bad_request", `a ${action} carries no "content"`);
    const reply: PersonReply = { question, action, who: body.by ?? "api", via: body.via ?? "api" };
    if (action === "accept") reply.content = body.content ?? {};
    if (body.reason !== undefined) reply.reason = body.reason;
    const { run, state, events } = await readRunOf(store, ref);
    const checked = checkReply(state, askedLog(events), reply);
    const dir = store.runDir(run.id);
    if ((await leaveReply(dir, checked)) === "exists") {
      const first = await readReply(dir, question);
      throw repliedAlready(`run ${run.number}`, question, { action: first?.action ?? "answered", who: first?.who ?? "someone" });
    }
    return c.json({ reply: { question, action, by: checked.who }, run }, 202);
  });
}
