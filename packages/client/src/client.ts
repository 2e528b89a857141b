import { definedFields, type Envelope, type RunStatus } from "@baton/protocol/core";
import type { components, paths } from "./api/api-types.ts";
import { apiError } from "./errors.ts";
import { followStream, type FollowItem, type FollowOptions } from "./follow.ts";

type Paths = paths;
type JsonBody<T> = T extends { content: { "application/json": infer B } } ? B : never;
type JsonAnswer<T, S extends number> = T extends { responses: { [K in S]: { content: { "application/json": infer B } } } } ? B : never;

/** A run as `GET /api/runs` lists it (the API's RunSummary). */
export type RunSummary = components["schemas"]["RunSummary"];

/** What `POST /api/runs` takes: as `baton run` does (`script` is the fake agent's steps or a file in the project). */
export type StartRun = JsonBody<Paths["/api/runs"]["post"]["requestBody"]>;

/** A decision at a gate; `via` is recorded in `approval.resolved` (default `api`). */
export type GateDecision = NonNullable<JsonBody<Paths["/api/runs/{ref}/approve"]["post"]["requestBody"]>>;

/** What allowing a tool call a permission question waits on takes, and what denying it takes. */
export type AllowAnswer = NonNullable<JsonBody<Paths["/api/runs/{ref}/permissions/{call}/allow"]["post"]["requestBody"]>>;
export type DenyAnswer = NonNullable<JsonBody<Paths["/api/runs/{ref}/permissions/{call}/deny"]["post"]["requestBody"]>>;

/** A person's answer as the server left it for the run. */
export type PermissionAnswer = JsonAnswer<Paths["/api/runs/{ref}/permissions/{call}/allow"]["post"], 202>["answer"];

type RunList = JsonAnswer<Paths["/api/runs"]["get"], 200>;
type StartedRun = JsonAnswer<Paths["/api/runs"]["post"], 201>["run"];

export type ClientOptions = {
  /** Where `baton serve` listens, e.g. `http://127.0.0.1:7317`. */
  baseUrl: string;
  /** The server's token (`.baton/serve.json`, or the `?token=` of the URL it prints). */
  token: string;
  /** The fetch to use (default: the global one, in Node 18+ and browsers). */
  fetch?: typeof fetch;
};

/**
 * A client of `baton serve`'s HTTP API.
 *
 * @example
 * const baton = BatonClient.fromUrl("http://127.0.0.1:7317/?token=…");
 * const { runs } = await baton.listRuns({ status: "running" });
 * for await (const item of baton.followRun(runs[0].id)) if (item.type === "event") console.log(item.event.type);
 */
export class BatonClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#headers = { authorization: `Bearer ${options.token}` };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** A client for the URL `baton serve` prints (`http://host:port/?token=T`). */
  static fromUrl(url: string, options: { fetch?: typeof fetch } = {}): BatonClient {
    const parsed = new URL(url);
    const token = parsed.searchParams.get("token");
    if (token === null || token === "") throw new TypeError(`${url} has no ?token=: use the URL baton serve prints, or pass the token from .baton/serve.json`);
    return new BatonClient({ baseUrl: parsed.origin, token, ...definedFields({ fetch: options.fetch }) });
  }

  /** Runs, newest first, and the feed position to follow from to keep the list current. */
  listRuns(query: { status?: RunStatus; limit?: number } = {}): Promise<RunList> {
    return this.#json("GET", `/api/runs${search(query)}`);
  }

  /** One run by number, id or unique id prefix. */
  async getRun(ref: string | number): Promise<RunSummary> {
    return (await this.#json<{ run: RunSummary }>("GET", `/api/runs/${encodeURIComponent(String(ref))}`)).run;
  }

  /** A page of a run's durable events after `after` (its `seq`); `next_after` continues. */
  events(ref: string | number, query: { after?: number; limit?: number } = {}): Promise<{ events: Envelope[]; next_after: number }> {
    return this.#json("GET", `/api/runs/${encodeURIComponent(String(ref))}/events${search(query)}`);
  }

  /** A tool call's complete output, from the run's trace store. */
  async output(ref: string | number, call: string): Promise<string> {
    const response = await this.#request("GET", `/api/runs/${encodeURIComponent(String(ref))}/outputs/${encodeURIComponent(call)}`);
    return response.text();
  }

  /** Starts a run (as `baton run … --json`); answers once it is created. */
  async startRun(body: StartRun): Promise<StartedRun> {
    return (await this.#json<{ run: StartedRun }>("POST", "/api/runs", body)).run;
  }

  /** Asks the run's process to cancel it; `run.cancelled` follows on its stream. */
  async cancelRun(ref: string | number, reason?: string): Promise<void> {
    const response = await this.#request("POST", `/api/runs/${encodeURIComponent(String(ref))}/cancel`, definedFields({ reason }));
    await response.body?.cancel();
  }

  /** Approves the gate a paused workflow run waits at; the run resumes. */
  async approve(ref: string | number, decision: GateDecision = {}): Promise<RunSummary> {
    return (await this.#json<{ run: RunSummary }>("POST", `/api/runs/${encodeURIComponent(String(ref))}/approve`, decision)).run;
  }

  /** Rejects the gate a paused workflow run waits at; the run resumes. */
  async reject(ref: string | number, decision: GateDecision = {}): Promise<RunSummary> {
    return (await this.#json<{ run: RunSummary }>("POST", `/api/runs/${encodeURIComponent(String(ref))}/reject`, decision)).run;
  }

  /** Answers the gate a paused workflow run waits at with an option's label or key (or free text). */
  async answer(ref: string | number, answer: string, decision: GateDecision = {}): Promise<RunSummary> {
    return (await this.#json<{ run: RunSummary }>("POST", `/api/runs/${encodeURIComponent(String(ref))}/answer`, { ...decision, answer })).run;
  }

  /** Allows the tool call a permission question waits on (`permission.resolved` follows on the stream). */
  async allow(ref: string | number, call: string, body: AllowAnswer = {}): Promise<PermissionAnswer> {
    return (await this.#json<{ answer: PermissionAnswer }>("POST", `${permissionPath(ref, call)}/allow`, body)).answer;
  }

  /** Denies the tool call a permission question waits on. */
  async deny(ref: string | number, call: string, body: DenyAnswer = {}): Promise<PermissionAnswer> {
    return (await this.#json<{ answer: PermissionAnswer }>("POST", `${permissionPath(ref, call)}/deny`, body)).answer;
  }

  /**
   * Answers a question the agent asked (ACP elicitation): `accept` (the default) with the form's
   * `content`, or `decline`/`cancel`. The server checks the content against the form
   * (`invalid_answer` naming the field); `question.answered` follows on the stream.
   */
  async reply(
    ref: string | number,
    question: string,
    body: { action?: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean | string[]>; reason?: string; by?: string; via?: "api" | "web" } = {},
  ): Promise<{ question: string; action: string; by: string }> {
    return (await this.#json<{ reply: { question: string; action: string; by: string } }>("POST", `/api/runs/${encodeURIComponent(String(ref))}/questions/${encodeURIComponent(question)}`, body)).reply;
  }

  /** A run's events by `seq`, then live, until its final event; resumes by itself after a disconnect. */
  followRun(ref: string | number, options: FollowOptions = {}): AsyncGenerator<FollowItem> {
    return followStream({ fetch: this.#fetch, url: `${this.#base}/api/runs/${encodeURIComponent(String(ref))}/stream`, headers: this.#headers, endsAtFinal: true }, options);
  }

  /** Every run's events (the feed) by `pos`, never ending; resumes by itself after a disconnect. */
  followFeed(options: FollowOptions = {}): AsyncGenerator<FollowItem> {
    return followStream({ fetch: this.#fetch, url: `${this.#base}/api/stream`, headers: this.#headers, endsAtFinal: false }, options);
  }

  async #request(method: "GET" | "POST", path: string, body?: unknown): Promise<Response> {
    const headers = body === undefined ? this.#headers : { ...this.#headers, "content-type": "application/json" };
    const response = await this.#fetch(`${this.#base}${path}`, { method, headers, ...definedFields({ body: body === undefined ? undefined : JSON.stringify(body) }) });
    if (!response.ok) throw await apiError(response);
    return response;
  }

  async #json<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    return (await (await this.#request(method, path, body)).json()) as T;
  }
}

function permissionPath(ref: string | number, call: string): string {
  return `/api/runs/${encodeURIComponent(String(ref))}/permissions/${encodeURIComponent(call)}`;
}

function search(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
