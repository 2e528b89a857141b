import type { RunStore } from "@baton/engine/store";
import { foldRun, type Envelope } from "@baton/protocol/core";
import type { ServerApp } from "../http/server-app.ts";
import type { CliChildOptions } from "./cli-child.ts";
import { answerRoute, approveRoute, rejectRoute } from "./contract/gates.ts";
import { checkGateDecision, type DecisionRequest } from "./gate-decision.ts";
import { resolveFresh } from "./resolve.ts";
import { resumeRun } from "./resume-run.ts";

export type GateRoutesOptions = { store: RunStore; start: CliChildOptions };

/**
 * `POST /api/runs/{ref}/approve|reject|answer`: a decision at the gate a paused workflow run
 * waits at. Checked against the run's folded events first (nothing is started for a run that
 * is not waiting, or an answer that fits no option), then recorded and the run resumed by the
 * CLI in a detached process: 202 with the run; its stream shows the rest.
 */
export function addGateRoutes(app: ServerApp, options: GateRoutesOptions): void {
  const { store } = options;
  const decide = async (ref: string, decision: DecisionRequest) => {
    const run = await resolveFresh(store, ref);
    const events: Envelope[] = [];
    for await (const event of store.readRun(run.id)) events.push(event);
    await checkGateDecision(foldRun(events), decision);
    await resumeRun(run.id, decision, options.start);
    return await store.getRun(run.id) ?? run;
  };
  app.openapi(approveRoute, async (c) => {
    const { via = "api", comment, by } = c.req.valid("json");
    return c.json({ run: await decide(c.req.valid("param").ref, { kind: "approve", via, comment, by }) }, 202);
  });
  app.openapi(rejectRoute, async (c) => {
    const { via = "api", comment, by } = c.req.valid("json");
    return c.json({ run: await decide(c.req.valid("param").ref, { kind: "reject", via, comment, by }) }, 202);
  });
  app.openapi(answerRoute, async (c) => {
    const { via = "api", answer, comment, by } = c.req.valid("json");
    return c.json({ run: await decide(c.req.valid("param").ref, { kind: "answer", via, answer, comment, by }) }, 202);
  });
}
