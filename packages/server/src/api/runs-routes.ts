import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { stream } from "hono/streaming";
import type { Store } from "@baton/engine/store";
import { isFinalStatus, type Envelope } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";
import type { ServerApp } from "../http/server-app.ts";
import { booleanField, jsonBody, stringField } from "./json-body.ts";
import {
  DEFAULT_EVENTS_LIMIT,
  DEFAULT_RUNS_LIMIT,
  MAX_EVENTS_LIMIT,
  MAX_RUNS_LIMIT,
  parseCallId,
  parseCursor,
  parseLimit,
  parseRef,
  parseStatus,
} from "./params.ts";
import { resolveFresh } from "./resolve.ts";
import { projectScriptPath, scriptField } from "./run-script.ts";
import { startRun, type StartOptions } from "./start-run.ts";
import { workflowField } from "./workflow-name.ts";

export type RunsRoutesOptions = { store: Store; start: StartOptions };

const AGENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The REST routes of runs: list, one run, its events, its tool outputs, start, cancel (gates: gate-routes.ts). */
export function addRunsRoutes(app: ServerApp, options: RunsRoutesOptions): void {
  const { store } = options;

  app.get("/api/runs", async (c) => {
    const status = parseStatus(c.req.query("status"));
    const limit = parseLimit(c.req.query("limit"), DEFAULT_RUNS_LIMIT, MAX_RUNS_LIMIT);
    // Read before the list: an event committed in between is then in the list and after
    // feed_pos (applied twice, harmlessly), never in neither.
    const feedPos = store.feedPosition;
    const runs = await store.listRuns(status === undefined ? {} : { status });
    return c.json({ runs: runs.reverse().slice(0, limit), feed_pos: feedPos });
  });

  app.post("/api/runs", async (c) => {
    const body = await jsonBody(c);
    const script = scriptField(body);
    const workflow = workflowField(body);
    const autoApprove = booleanField(body, "auto_approve");
    if (autoApprove === true && workflow === undefined) throw apiError("bad_request", '"auto_approve" needs a "workflow"', "name the workflow whose gates it answers");
    const request = {
      // A workflow's goal may be its task.
      task: stringField(body, "task", { required: workflow === undefined, max: 100_000 }),
      agent: stringField(body, "agent", { required: true, max: 64, pattern: AGENT_PATTERN }) as string,
      model: stringField(body, "model", { required: false, max: 200 }),
      script: script === undefined || "steps" in script ? script : { path: await projectScriptPath(script.path, options.start.projectRoot) },
      // Checked by `baton run` itself: a bad value comes back as its one-line error (422).
      timeout: stringField(body, "timeout", { required: false, max: 32, pattern: /^[0-9a-z.]+$/ }),
      require_output: stringField(body, "require_output", { required: false, max: 16, pattern: /^(change|none)$/ }),
      workflow,
      auto_approve: autoApprove,
    };
    const run = await startRun(request, options.start);
    c.header("Location", `/api/runs/${run.id}`);
    return c.json({ run }, 201);
  });

  app.get("/api/runs/:ref", async (c) => c.json({ run: await resolveFresh(store, c.req.param("ref")) }));

  app.get("/api/runs/:ref/events", async (c) => {
    const run = await resolveFresh(store, c.req.param("ref"));
    const after = parseCursor(c.req.query("after"), "after") ?? 0;
    const limitText = c.req.query("limit");
    if (/application\/x-ndjson/i.test(c.req.header("accept") ?? "")) {
      const limit = limitText === undefined ? Number.POSITIVE_INFINITY : parseLimit(limitText, 0, Number.MAX_SAFE_INTEGER);
      c.header("Content-Type", "application/x-ndjson; charset=utf-8");
      return stream(c, async (out) => {
        let count = 0;
        for await (const event of store.readRun(run.id, { after })) {
          if (count >= limit || out.aborted) break;
          await out.write(`${JSON.stringify(event)}\n`);
          count += 1;
        }
      });
    }
    const limit = parseLimit(limitText, DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT);
    const events: Envelope[] = [];
    for await (const event of store.readRun(run.id, { after })) {
      events.push(event);
      if (events.length >= limit) break;
    }
    return c.json({ events, next_after: events.at(-1)?.seq ?? after });
  });

  app.get("/api/runs/:ref/outputs/:call", async (c) => {
    const run = store.resolveRun(parseRef(c.req.param("ref")));
    const call = parseCallId(c.req.param("call"));
    const file = join(store.runDir(run.id), "outputs", `${call}.txt`);
    // O_NOFOLLOW: a symlink planted in outputs/ is not followed out of the run's folder.
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (handle === undefined) throw apiError("output_not_found", `run ${run.number} has no output for call ${call}`, "tool outputs exist for calls whose tool.completed has output_file");
    try {
      if (!(await handle.stat()).isFile()) throw apiError("output_not_found", `run ${run.number} has no output for call ${call}`);
      const text = await handle.readFile();
      return c.body(text, 200, { "Content-Type": "text/plain; charset=utf-8" });
    } finally {
      await handle.close();
    }
  });

  app.post("/api/runs/:ref/cancel", async (c) => {
    const body = await jsonBody(c, { optional: true });
    const reason = stringField(body, "reason", { required: false, max: 1000 });
    const run = store.resolveRun(parseRef(c.req.param("ref")));
    if (isFinalStatus(run.status)) throw apiError("run_ended", `run ${run.number} already ended (${run.status})`, "nothing to cancel");
    if (await store.recoverIfAbandoned(run.id)) return c.json({ run: store.getRun(run.id) ?? run }, 200);
    // The engine's entry point loads the agent runner: only when a cancel is asked for.
    const { requestCancel } = await import("@baton/engine");
    await requestCancel(store.runDir(run.id), { by: "api", ...(reason === undefined ? {} : { reason }) });
    return c.json({ run }, 202);
  });
}
