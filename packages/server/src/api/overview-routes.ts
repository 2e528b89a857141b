import { askedLog, foldAsked, foldQuestion, questionLog } from "@baton/engine/input";
import type { Store } from "@baton/engine/store";
import { applyEvent, definedFields, initialRunState, type RunState } from "@baton/protocol/core";
import type { ServerApp } from "../http/server-app.ts";
import { overviewRoute } from "./contract/views.ts";

/** What the run list shows of a run besides its catalog row: folded from its events. */
export type RunOverview = {
  id: string;
  number: number;
  status: string;
  duration_ms?: number;
  cost_usd?: number;
  input_tokens: number;
  output_tokens: number;
  /** The stage running now, or the gate a paused run waits at. */
  stage?: string;
  branch?: string;
  /** Why the run waits for a person: a gate, a permission question an `ask` rule put, or a question the agent asked. */
  waiting?: "gate" | "permission" | "question";
};

const DEFAULT_LIMIT = 50;

/**
 * `GET /api/overview?status=&limit=`: the newest runs with their figures (duration, cost,
 * stage, branch) and whether a person is awaited, each folded from the run's events, and the
 * feed position they were read at.
 */
export function addOverviewRoutes(app: ServerApp, options: { store: Store }): void {
  const { store } = options;
  app.openapi(overviewRoute, async (c) => {
    const { status, limit = DEFAULT_LIMIT } = c.req.valid("query");
    const feedPos = await store.feedPosition();
    const rows = (await store.listRuns(definedFields({ status }))).reverse().slice(0, limit);
    const runs: RunOverview[] = [];
    for (const row of rows) runs.push(await overviewOf(store, row.id, row.number));
    return c.json({ runs, feed_pos: feedPos }, 200);
  });
}

async function overviewOf(store: Store, runId: string, number: number): Promise<RunOverview> {
  const state = initialRunState();
  const questions = questionLog([]);
  const asked = askedLog([]);
  for await (const event of store.readRun(runId)) {
    applyEvent(state, event);
    foldQuestion(questions, event);
    foldAsked(asked, event);
  }
  const gate = state.status === "paused" ? state.workflow.gate : undefined;
  const running = state.status === "running";
  const waiting: RunOverview["waiting"] = gate !== undefined ? "gate" : running && questions.open.size > 0 ? "permission" : running && asked.open.size > 0 ? "question" : undefined;
  return definedFields({
    id: runId,
    number,
    status: state.status,
    duration_ms: state.duration_ms,
    cost_usd: state.cost_usd,
    input_tokens: state.usage.input_tokens,
    output_tokens: state.usage.output_tokens,
    stage: gate?.gate ?? currentStage(state),
    branch: state.commit?.branch ?? state.workspace?.branch,
    waiting,
  });
}

function currentStage(state: RunState): string | undefined {
  const running = state.workflow.stages.filter((stage) => stage.status === "running");
  return (running.at(-1) ?? (state.status === "running" ? undefined : state.workflow.stages.at(-1)))?.stage;
}
