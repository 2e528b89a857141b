// The HTTP API of `baton serve`, as the page uses it. Every call carries the access token.

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

export type Api = {
  listRuns(): Promise<RunList>;
  getRun(ref: string): Promise<RunRow>;
  /** `timeout` like "30m": a run started here is unattended, so it needs one (or the project's config gives one). */
  createRun(input: { task?: string; agent: string; model?: string; script?: string; timeout?: string; workflow?: string; auto_approve?: boolean }): Promise<{ id: string; number: number }>;
  cancelRun(ref: string): Promise<void>;
  /** Answers the gate a paused run waits at; the run resumes in the server's `baton` child. */
  decideGate(ref: string, decision: GateDecisionInput): Promise<void>;
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
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
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
