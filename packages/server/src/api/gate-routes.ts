import type { Store } from "@baton/engine/store";
import { foldRun, type Envelope } from "@baton/protocol/core";
import type { ServerApp } from "../http/server-app.ts";
import type { CliChildOptions } from "./cli-child.ts";
import { checkGateDecision, decisionFromBody, type DecisionKind } from "./gate-decision.ts";
import { jsonBody } from "./json-body.ts";
import { resolveFresh } from "./resolve.ts";
import { resumeRun } from "./resume-run.ts";

export type GateRoutesOptions = { store: Store; start: CliChildOptions };

const KINDS: readonly DecisionKind[] = ["approve", "reject", "answer"];

/**
 * `POST /api/runs/{ref}/approve|reject|answer`: a decision at the gate a paused workflow run
 * waits at. Checked against the run's folded events first (nothing is started for a run that
 * is not waiting, or an answer that fits no option), then recorded and the run resumed by the
 * CLI in a detached process: 202 with the run; its stream shows the rest.
 */
export function addGateRoutes(app: ServerApp, options: GateRoutesOptions): void {
  const { store } = options;
  for (const kind of KINDS) {
    app.post(`/api/runs/:ref/${kind}`, async (c) => {
      const body = await jsonBody(c, { optional: kind !== "answer" });
      const decision = decisionFromBody(kind, body);
      const run = await resolveFresh(store, c.req.param("ref"));
      const events: Envelope[] = [];
      for await (const event of store.readRun(run.id)) events.push(event);
      await checkGateDecision(foldRun(events), decision);
      await resumeRun(run.id, decision, options.start);
      return c.json({ run: store.getRun(run.id) ?? run }, 202);
    });
  }
}
