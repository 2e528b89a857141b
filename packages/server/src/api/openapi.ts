// The API's OpenAPI 3.1 document, written as data. A test checks that every route the app
// registers is described here (and nothing more), so the two cannot drift apart.

const json = (schema: object) => ({ "application/json": { schema } });
const error = (description: string) => ({ description, content: json({ $ref: "#/components/schemas/Error" }) });
const ref = { name: "ref", in: "path", required: true, description: "a run number (12), a run id (run_…), or a unique id prefix", schema: { type: "string", pattern: "^(?:\\d{1,15}|(?:run_)?[0-9A-Za-z]{1,26})$" } };
const lastEventId = { name: "Last-Event-ID", in: "header", required: false, description: "resume after this id (wins over ?after)", schema: { type: "string", pattern: "^\\d+$" } };
const after = (what: string) => ({ name: "after", in: "query", required: false, description: `only events after this ${what}`, schema: { type: "integer", minimum: 0 } });
const limit = (max: number, fallback: number) => ({ name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: max, default: fallback } });
const common = { "400": error("bad parameter"), "401": error("missing or wrong token"), "403": error("Host not allowed") };
const notFound = { "404": error("no such run") };

/** A decision at a gate: what each of approve, reject and answer takes and answers. */
const decision = (summary: string, required: readonly string[], properties: Record<string, object>) => ({
  post: {
    summary,
    description:
      "Checked against the run's events first: a run that is not paused at a gate (409 not_paused), or an answer that fits no option (422 invalid_answer), changes nothing. Then `baton approve|reject|answer` records the decision (by, via, comment) and resumes the run in a detached process: follow the run's stream for the rest.",
    parameters: [ref],
    requestBody: {
      required: required.length > 0,
      content: json({
        type: "object",
        required,
        properties: {
          ...properties,
          comment: { type: "string", maxLength: 10_000, description: "recorded with the decision" },
          by: { type: "string", maxLength: 200, description: "who decided (default: the user the server runs as)" },
          via: { type: "string", enum: ["api", "web"], default: "api", description: "where the decision was made, as recorded in approval.resolved" },
        },
      }),
    },
    responses: {
      "202": { description: "recorded: the run is resuming", content: json({ type: "object", required: ["run"], properties: { run: { $ref: "#/components/schemas/RunSummary" } } }) },
      ...common,
      ...notFound,
      "409": error("the run is not paused at a gate"),
      "415": error("body is not application/json"),
      "422": error("the answer fits no option of the gate (invalid_answer), or the CLI refused the resume (resume_rejected, its one-line error)"),
      "504": error("the resume did not start in time"),
    },
  },
});

const SSE_DESCRIPTION = [
  "Server-sent events. First `retry: 2000`. Each durable event: `id: <cursor>` and `data: <envelope JSON>` (event name `message`).",
  "Ephemeral events (`agent.delta`, runs written by the server's own process only) have no id.",
  "`: ping` comments keep a quiet stream open. A client that falls too far behind gets `event: resync` with `data: {\"after\": N}`",
  "and is disconnected: reconnect with Last-Event-ID N to get the rest.",
].join(" ");

export const OPENAPI_DOCUMENT = {
  openapi: "3.1.0",
  info: {
    title: "Baton HTTP API",
    version: "1",
    description: "Runs and their durable event streams. Every /api route needs the server's token: `Authorization: Bearer T` or `?token=T`.",
  },
  security: [{ bearer: [] }, { queryToken: [] }],
  paths: {
    "/api/runs": {
      get: {
        summary: "List runs, newest first",
        parameters: [
          { name: "status", in: "query", required: false, schema: { $ref: "#/components/schemas/RunStatus" } },
          limit(10_000, 100),
        ],
        responses: {
          "200": {
            description: "runs",
            content: json({
              type: "object",
              required: ["runs", "feed_pos"],
              properties: {
                runs: { type: "array", items: { $ref: "#/components/schemas/RunSummary" } },
                feed_pos: {
                  type: "integer",
                  minimum: 0,
                  description: "The highest feed position committed before the list was read: follow /api/stream?after=feed_pos to keep the list current without replaying the feed",
                },
              },
            }),
          },
          ...common,
        },
      },
      post: {
        summary: "Start a run (the CLI, detached: the run outlives the request and the server)",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["agent"],
            properties: { task: { type: "string", description: "what to do; required unless a workflow with a goal is given" }, agent: { type: "string" }, model: { type: "string" }, script: {
                description:
                  "fake agent: its script, either the steps themselves (a JSON array of steps, or {\"turns\": [[steps…], …]}) or a file inside the project, relative to its root. A path that leads outside the project, by .. or a symbolic link, is refused (400); errors about a file say where it goes wrong (line, column), never what it holds",
                oneOf: [
                  { type: "array", items: { type: "object" } },
                  { type: "object", required: ["turns"], properties: { turns: { type: "array", items: { type: "array", items: { type: "object" } } } } },
                  { type: "object", required: ["stages"], description: "with a workflow: one script per stage id", properties: { stages: { type: "object" } } },
                  { type: "string", minLength: 1, maxLength: 4096 },
                ],
              }, timeout: { type: "string", description: "the run's timeout, like 30m; without one the project's [limits] timeout or BATON_TIMEOUT must give one (a run started here is unattended)" }, require_output: { type: "string", enum: ["change", "none"], description: "what the run must leave (default: the project's [run] require_output)" },
              workflow: { type: "string", pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$", description: "walk this workflow of .baton/workflows/ (or the built-in single); a name, never a path (one ending in .dot or .fabro is refused)" },
              auto_approve: { type: "boolean", description: "with workflow: every gate takes its first option" } },
          }),
        },
        responses: {
          "201": { description: "started", content: json({ type: "object", required: ["run"], properties: { run: { type: "object", required: ["id", "number"], properties: { id: { type: "string" }, number: { type: "integer" } } } } }) },
          ...common,
          "415": error("body is not application/json"),
          "422": error("the CLI refused the run (its one-line error)"),
          "504": error("the run did not start in time"),
        },
      },
    },
    "/api/runs/{ref}": {
      get: {
        summary: "One run",
        parameters: [ref],
        responses: { "200": { description: "the run", content: json({ type: "object", required: ["run"], properties: { run: { $ref: "#/components/schemas/RunSummary" } } }) }, ...common, ...notFound },
      },
    },
    "/api/runs/{ref}/events": {
      get: {
        summary: "A page of a run's durable events by seq (NDJSON, unpaged unless limit is given, with Accept: application/x-ndjson)",
        parameters: [ref, after("seq"), limit(10_000, 1000)],
        responses: {
          "200": {
            description: "events with seq > after; next_after is the seq to pass next",
            content: {
              ...json({ type: "object", required: ["events", "next_after"], properties: { events: { type: "array", items: { $ref: "#/components/schemas/Envelope" } }, next_after: { type: "integer" } } }),
              "application/x-ndjson": { schema: { $ref: "#/components/schemas/Envelope" } },
            },
          },
          ...common,
          ...notFound,
        },
      },
    },
    "/api/runs/{ref}/stream": {
      get: {
        summary: "A run's events, live (SSE, id = seq); ends after the run's final event",
        description: SSE_DESCRIPTION,
        parameters: [ref, after("seq"), lastEventId],
        responses: { "200": { description: "the stream", content: { "text/event-stream": { schema: { type: "string" } } } }, "204": { description: "the run has ended and the client has its final event" }, ...common, ...notFound },
      },
    },
    "/api/runs/{ref}/outputs/{call}": {
      get: {
        summary: "A tool call's complete output (the trace store)",
        parameters: [ref, { name: "call", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$" } }],
        responses: { "200": { description: "the output", content: { "text/plain": { schema: { type: "string" } } } }, ...common, "404": error("no such run or output") },
      },
    },
    "/api/runs/{ref}/cancel": {
      post: {
        summary: "Ask the run's process to cancel it",
        parameters: [ref],
        requestBody: { required: false, content: json({ type: "object", properties: { reason: { type: "string" } } }) },
        responses: {
          "202": { description: "asked; follow the stream for run.cancelled", content: json({ type: "object", properties: { run: { $ref: "#/components/schemas/RunSummary" } } }) },
          "200": { description: "the run had no live process: it is now failed (interrupted)", content: json({ type: "object", properties: { run: { $ref: "#/components/schemas/RunSummary" } } }) },
          ...common,
          ...notFound,
          "409": error("the run has already ended"),
        },
      },
    },
    "/api/runs/{ref}/approve": decision("Approve the gate a paused workflow run waits at (its first option that is not a way back), and resume the run", [], {}),
    "/api/runs/{ref}/reject": decision("Reject the gate a paused workflow run waits at (its way back, or the gate fails), and resume the run", [], {}),
    "/api/runs/{ref}/answer": decision("Answer the gate a paused workflow run waits at with an option's label or key, or free text at a freeform gate, and resume the run", ["answer"], {
      answer: { type: "string", minLength: 1, maxLength: 10_000 },
    }),
    "/api/stream": {
      get: {
        summary: "The cross-run feed, live (SSE, id = pos); never ends",
        description: `${SSE_DESCRIPTION} Envelopes carry pos and number.`,
        parameters: [after("pos"), lastEventId],
        responses: { "200": { description: "the stream", content: { "text/event-stream": { schema: { type: "string" } } } }, ...common },
      },
    },
    "/api/openapi.json": {
      get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.1", content: json({ type: "object" }) }, ...common } },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer" },
      queryToken: { type: "apiKey", in: "query", name: "token" },
    },
    schemas: {
      Error: {
        type: "object",
        required: ["error"],
        properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" }, hint: { type: "string" } } } },
      },
      RunStatus: { type: "string", enum: ["created", "running", "paused", "succeeded", "stopped", "failed", "cancelled"] },
      RunSummary: {
        type: "object",
        required: ["id", "number", "status", "last_seq", "committed_bytes"],
        properties: {
          id: { type: "string" },
          number: { type: "integer" },
          status: { $ref: "#/components/schemas/RunStatus" },
          task: { type: "string" },
          agent: { type: "string" },
          model: { type: "string" },
          created_at: { type: "string" },
          started_at: { type: "string" },
          ended_at: { type: "string" },
          pid: { type: "integer" },
          last_seq: { type: "integer" },
          committed_bytes: { type: "integer" },
        },
      },
      Envelope: {
        description: "An event envelope (docs/schema/events.v1.json); on the feed it also has pos and number",
        type: "object",
        required: ["v", "run", "at", "type", "data"],
        properties: { v: { type: "integer" }, run: { type: "string" }, seq: { type: "integer" }, at: { type: "string" }, type: { type: "string" }, data: { type: "object" } },
      },
    },
  },
} as const;
