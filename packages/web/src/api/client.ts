// The HTTP API of `baton serve`, as the page uses it. Every call carries the access token.
import { definedFields } from "@baton/protocol/core";

/** A run as the API lists it. Fields the server does not send stay undefined. */
export type RunRow = {
  id: string;
  number: number;
  status: string;
  task?: string;
  agent?: string;
  model?: string;
  created_at?: string;
  started_at?: string;
  ended_at?: string;
  last_seq?: number;
};

/** The run list, and the feed position it was read at: follow the feed after it to keep it current. */
export type RunList = { runs: RunRow[]; feedPos: number };

/** An error answer of the API (`{"error": {code, message}}`), or a failed request. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

/**
 * Why a request failed, when asking again will not help (a refused token, an unknown run),
 * or undefined for failures worth retrying (the server is down or restarting).
 */
export function lastingFailure(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return undefined;
  if (error.status === 401 || error.status === 403) return "the access token was refused; open the address baton serve printed";
  return error.message;
}

/** A decision at a gate, as the page sends it (recorded `via: web`). */
export type GateDecisionInput = ({ kind: "approve" | "reject" } | { kind: "answer"; answer: string }) & { comment?: string };

/** A run's figures as `GET /api/overview` gives them: folded from its events by the server. */
export type RunOverview = {
  id: string;
  number: number;
  status: string;
  duration_ms?: number;
  cost_usd?: number;
  input_tokens?: number;
  output_tokens?: number;
  stage?: string;
  branch?: string;
  waiting?: "gate" | "permission" | "question";
};

/** One file of a run's change (`GET /api/runs/{ref}/diff`). */
export type DiffFile = {
  path: string;
  old_path?: string;
  change: string;
  binary: boolean;
  added: number;
  removed: number;
  patch: string;
  truncated: boolean;
};

export type RunDiff = { source: "commit" | "workspace"; base_sha?: string; commit?: string; branch?: string; added: number; removed: number; files: DiffFile[] };

/** A captured file (`GET /api/runs/{ref}/artifacts`); `url` is a path on this server. */
export type Artifact = { path: string; bytes: number; sha256: string; media_type: string; stage?: string; url: string };

/** A person's reply to a question the agent asked (recorded `via: web`): the form's values, or a decline. */
export type QuestionReply = { action: "accept" | "decline"; content?: Record<string, string | number | boolean | string[]> };

/** A person's answer to a permission question an `ask` rule put (recorded `via: web`). */
export type PermissionAnswer = { action: "allow" | "deny"; alwaysForRun?: boolean; reason?: string; optionId?: string };

export type Api = {
  listRuns(): Promise<RunList>;
  getRun(ref: string): Promise<RunRow>;
  /** `timeout` like "30m": a run started here is unattended, so it needs one (or the project's config gives one). */
  createRun(input: { task?: string; agent: string; model?: string; script?: string; timeout?: string; workflow?: string; auto_approve?: boolean }): Promise<{ id: string; number: number }>;
  cancelRun(ref: string): Promise<void>;
  /** Answers the gate a paused run waits at; the run resumes in the server's `baton` child. */
  decideGate(ref: string, decision: GateDecisionInput): Promise<void>;
  /** The newest runs with their figures, optionally of one status. */
  overview(status?: string): Promise<RunOverview[]>;
  /** What the run changed, by file. */
  getDiff(ref: string): Promise<RunDiff>;
  listArtifacts(ref: string): Promise<Artifact[]>;
  /** Where an artifact's bytes are served (our own origin, with the token). */
  artifactUrl(path: string): string;
  /** Queues text for the running agent; the stream shows input.queued or input.rejected. */
  steer(ref: string, text: string): Promise<{ id: string }>;
  answerPermission(ref: string, call: string, answer: PermissionAnswer): Promise<void>;
  /** Answers a question the agent asked; the stream shows question.answered. */
  answerQuestion(ref: string, id: string, reply: QuestionReply): Promise<void>;
  /** The SSE URL of a run's events after `after` (EventSource cannot send headers). */
  runStreamUrl(ref: string, after: number): string;
  /** The SSE URL of the cross-run feed after position `after` (0: the server's default). */
  feedUrl(after: number): string;
  /** Where a tool call's complete output can be read. Built from our own origin only. */
  outputUrl(ref: string, call: string): string;
};

export function createApi(base: string, token: string, fetchFn: typeof fetch = (input, init) => fetch(input, init)): Api {
  const url = (path: string, query: Record<string, string | number | undefined> = {}) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    params.set("token", token);
    return `${base}${path}?${params.toString()}`;
  };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetchFn(`${base}${path}`, {
      method,
      headers: definedFields({ authorization: `Bearer ${token}`, "content-type": body === undefined ? undefined : "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
      const message = typeof error?.message === "string" ? error.message : `${method} ${path}: HTTP ${response.status}`;
      throw new ApiError(response.status, code, message);
    }
    return parsed as T;
  };
  const run = (ref: string) => `/api/runs/${encodeURIComponent(ref)}`;
  return {
    listRuns: async () => {
      const body = await call<{ runs?: RunRow[]; feed_pos?: unknown }>("GET", "/api/runs", undefined);
      // A server without feed_pos: the whole feed, from 0.
      return { runs: body.runs ?? [], feedPos: typeof body.feed_pos === "number" ? body.feed_pos : 0 };
    },
    getRun: async (ref) => (await call<{ run: RunRow }>("GET", run(ref))).run,
    createRun: async (input) => (await call<{ run: { id: string; number: number } }>("POST", "/api/runs", input)).run,
    cancelRun: async (ref) => {
      await call<unknown>("POST", `${run(ref)}/cancel`);
    },
    decideGate: async (ref, { kind, ...fields }) => {
      await call<unknown>("POST", `${run(ref)}/${kind}`, { ...fields, via: "web" });
    },
    overview: async (status) => (await call<{ runs?: RunOverview[] }>("GET", status === undefined ? "/api/overview" : `/api/overview?status=${encodeURIComponent(status)}`)).runs ?? [],
    getDiff: async (ref) => (await call<{ diff: RunDiff }>("GET", `${run(ref)}/diff`)).diff,
    listArtifacts: async (ref) => (await call<{ artifacts?: Artifact[] }>("GET", `${run(ref)}/artifacts`)).artifacts ?? [],
    // Only paths of this API: an artifact's url never sends the page elsewhere.
    artifactUrl: (path) => (/^\/api\/runs\/[0-9A-Za-z_]+\/artifacts\/[0-9a-f]{64}$/.test(path) ? url(path) : "about:blank"),
    steer: async (ref, text) => (await call<{ input: { id: string } }>("POST", `${run(ref)}/input`, { text, by: "web" })).input,
    answerPermission: async (ref, callId, { action, alwaysForRun, reason, optionId }) => {
      const body = definedFields({ via: "web", by: "web", option_id: optionId, always_for_run: alwaysForRun === true ? true : undefined, reason: reason === "" ? undefined : reason });
      await call<unknown>("POST", `${run(ref)}/permissions/${encodeURIComponent(callId)}/${action}`, body);
    },
    answerQuestion: async (ref, id, { action, content }) => {
      await call<unknown>("POST", `${run(ref)}/questions/${encodeURIComponent(id)}`, definedFields({ via: "web", by: "web", action, content }));
    },
    runStreamUrl: (ref, after) => url(`${run(ref)}/stream`, { after }),
    feedUrl: (after) => url("/api/stream", { after: after > 0 ? after : undefined }),
    outputUrl: (ref, call) => url(`${run(ref)}/outputs/${encodeURIComponent(call)}`),
  };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
