import { constants, existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { stream } from "hono/streaming";
import type { RunStore } from "@baton/engine/store";
import { isFinalStatus, outputInEvent, type Envelope, definedFields } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";
import type { ServerApp } from "../http/server-app.ts";
import { asCatalogEvents } from "./contract/components.ts";
import { rawResponse } from "./contract/responses.ts";
import { validationHook } from "./contract/validation-hook.ts";
import { cancelRunRoute, getOutputRoute, getRunRoute, listEventsRoute, listRunsRoute, startRunRoute } from "./contract/runs.ts";
import { DEFAULT_EVENTS_LIMIT, DEFAULT_RUNS_LIMIT, MAX_EVENTS_LIMIT, parseLimit } from "./params.ts";
import { resolveFresh } from "./resolve.ts";
import { projectScriptPath } from "./run-script.ts";
import { startRun, type StartOptions } from "./start-run.ts";

export type RunsRoutesOptions = { store: RunStore; start: StartOptions };

/** The REST routes of runs: list, one run, its events, its tool outputs, start, cancel (gates: gate-routes.ts). */
export function addRunsRoutes(app: ServerApp, options: RunsRoutesOptions): void {
  const { store } = options;

  app.openapi(listRunsRoute, async (c) => {
    const { status, limit = DEFAULT_RUNS_LIMIT } = c.req.valid("query");
    // Read before the list: an event committed in between is then in the list and after
    // feed_pos (applied twice, harmlessly), never in neither.
    const feedPos = await store.feedPosition();
    const runs = await store.listRuns(definedFields({ status }));
    return c.json({ runs: runs.reverse().slice(0, limit), feed_pos: feedPos }, 200);
  });

  app.openapi(startRunRoute, async (c) => {
    const body = c.req.valid("json");
    const { workflow, script } = body;
    const request = {
      task: body.task,
      agent: body.agent,
      model: body.model,
      script: script === undefined ? undefined : typeof script === "string" ? { path: await projectScriptPath(script, options.start.projectRoot) } : { steps: script },
      // Checked by `baton run` itself: a bad value comes back as its one-line error (422).
      timeout: body.timeout,
      require_output: body.require_output,
      workflow,
      auto_approve: body.auto_approve,
    };
    // A shared store's runs go to its workers (baton worker), not to this server's machine.
    const run = await startRun(request, { ...options.start, dispatch: "queueRun" in store });
    c.header("Location", `/api/runs/${run.id}`);
    return c.json({ run }, 201);
  });

  app.openapi(getRunRoute, async (c) => c.json({ run: await resolveFresh(store, c.req.valid("param").ref) }, 200));

  app.openapi(listEventsRoute, async (c) => {
    const run = await resolveFresh(store, c.req.valid("param").ref);
    const after = c.req.valid("query").after ?? 0;
    // The limit's range depends on the answer's form: any positive count of lines, or a page.
    const limitText = c.req.query("limit");
    if (wantsNdjson(c.req.header("accept"))) {
      const limit = limitText === undefined ? Number.POSITIVE_INFINITY : parseLimit(limitText, 0, Number.MAX_SAFE_INTEGER);
      c.header("Content-Type", "application/x-ndjson; charset=utf-8");
      return rawResponse(stream(c, async (out) => {
        let count = 0;
        for await (const event of store.readRun(run.id, { after })) {
          if (count >= limit || out.aborted) break;
          await out.write(`${JSON.stringify(event)}\n`);
          count += 1;
        }
      }));
    }
    const limit = parseLimit(limitText, DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT);
    const events: Envelope[] = [];
    for await (const event of store.readRun(run.id, { after })) {
      events.push(event);
      if (events.length >= limit) break;
    }
    return c.json({ events: asCatalogEvents(events), next_after: events.at(-1)?.seq ?? after }, 200);
  }, (result, c) => {
    // A bad limit is answered with the range of the form asked for: a page's, or any count of NDJSON lines.
    if (!result.success && result.target === "query" && result.error.issues[0]?.path[0] === "limit") {
      parseLimit(c.req.query("limit"), 0, wantsNdjson(c.req.header("accept")) ? Number.MAX_SAFE_INTEGER : MAX_EVENTS_LIMIT);
    }
    validationHook(result);
  });

  app.openapi(getOutputRoute, async (c) => {
    const { ref, call } = c.req.valid("param");
    const run = await store.resolveRun(ref);
    const file = join(store.runDir(run.id), "outputs", `${call}.txt`);
    // O_NOFOLLOW: a symlink planted in outputs/ is not followed out of the run's folder.
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (handle === undefined) {
      // An output its event's preview holds whole has no file (ADR 0039): served from the event.
      const inEvent = await outputFromLog(store, run.id, call);
      if (inEvent !== undefined) return c.text(inEvent, 200);
      throw apiError("output_not_found", `run ${run.number} has no output for call ${call}`, "tool outputs exist for calls whose tool.completed has output_file or a whole preview");
    }
    try {
      if (!(await handle.stat()).isFile()) throw apiError("output_not_found", `run ${run.number} has no output for call ${call}`);
      const text = await handle.readFile();
      return rawResponse(c.body(new Uint8Array(text), 200, { "Content-Type": "text/plain; charset=utf-8" }));
    } finally {
      await handle.close();
    }
  });

  app.openapi(cancelRunRoute, async (c) => {
    const { reason } = c.req.valid("json");
    const run = await store.resolveRun(c.req.valid("param").ref);
    if (isFinalStatus(run.status)) throw apiError("run_ended", `run ${run.number} already ended (${run.status})`, "nothing to cancel");
    if (await store.recoverIfAbandoned(run.id)) return c.json({ run: await store.getRun(run.id) ?? run }, 200);
    // The engine's entry point loads the agent runner: only when a cancel is asked for.
    const { requestCancel } = await import("@baton/engine");
    const request = { by: "api", ...definedFields({ reason }) };
    // A shared store's run may be on a worker on another machine: the request goes in the store.
    if ("queueRun" in store) {
      const { cancelSharedRun, dispatchingStore } = await import("@baton/engine/dispatch");
      const outcome = await cancelSharedRun(dispatchingStore(store) as NonNullable<ReturnType<typeof dispatchingStore>>, run.id, request);
      if (outcome === "ended") return c.json({ run: (await store.getRun(run.id)) ?? run }, 200);
    }
    // The run's folder is on the machine of the process running it: on a shared store, perhaps not this one.
    const dir = store.runDir(run.id);
    if (!("queueRun" in store) || existsSync(dir)) await requestCancel(dir, request);
    return c.json({ run }, 202);
  });
}

function wantsNdjson(accept: string | undefined): boolean {
  return /application\/x-ndjson/i.test(accept ?? "");
}

/** The output of the run's first `tool.completed` for `call` when that event holds it whole. */
async function outputFromLog(store: RunStore, runId: string, call: string): Promise<string | undefined> {
  for await (const event of store.readRun(runId, { after: 0 })) {
    if (event.type !== "tool.completed" || (event.data as Record<string, unknown>)["call"] !== call) continue;
    return outputInEvent(event.data as Record<string, unknown>);
  }
  return undefined;
}
