import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleControl, CONTROL_PREFIX } from "./control.ts";
import { decideReply, estimateTokens, replyTokens, requestRole } from "./conversation.ts";
import type { Reply } from "./conversation.ts";
import { retryAfterHeaders, sendJson, writeStream, writeWhole } from "./reply-writer.ts";
import { readRequestBody } from "./request-body.ts";
import { createRequestLog, credentialsOf, redactHeaders, redactPath } from "./request-log.ts";
import type { RequestLog, TwinRequestRecord } from "./request-log.ts";
import { routeRequest } from "./routes.ts";
import { parseScenario, scenarioFor } from "./scenario.ts";
import type { Fault, Scenario, ScenarioInput, ScenarioName } from "./scenario.ts";
import type { WireApi } from "./wire/wire-api.ts";

export type ModelTwinOptions = {
  /** What the twin plays; a name or a scenario object. Default `text`. */
  scenario?: ScenarioInput | ScenarioName;
  /** Default 127.0.0.1: the twin is for loopback only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Appends every request as one NDJSON line to this file. */
  logFile?: string;
  /** The model ids discovery calls list. */
  models?: readonly string[];
  /** Aborting closes the twin. */
  signal?: AbortSignal;
  /** The one key the twin takes (an upstream's real key): each request's `credential` says whether it came with it; other keys get a 401. */
  key?: string;
};

export const DEFAULT_TWIN_MODELS = ["twin-model"] as const;

/**
 * A loopback fake model provider speaking OpenAI chat completions and Responses, Anthropic
 * Messages and Gemini, playing a scenario (a text reply, a file write, a command, several
 * steps) with optional faults, and logging every request.
 *
 * @example
 * await using twin = await ModelTwin.start({ scenario: { name: "write", path: "a.txt", content: "hi\n" } });
 * // point the agent at twin.url (`/v1` for OpenAI-style clients), run it, then:
 * assert.equal(twin.requests.filter((r) => r.role === "main").length, 2);
 */
export class ModelTwin implements AsyncDisposable {
  #server: Server;
  #log: RequestLog;
  #scenario: Scenario;
  #models: readonly string[];
  #faultUses = 0;
  #seq = 0;
  #url = "";
  readonly #key: string | undefined;

  private constructor(options: ModelTwinOptions) {
    this.#key = options.key;
    this.#scenario = parseScenario(options.scenario ?? "text");
    this.#log = createRequestLog(options.logFile);
    this.#models = options.models ?? DEFAULT_TWIN_MODELS;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: { message: `model twin: ${(error as Error).message}` } });
        else response.destroy(error as Error);
      });
    });
  }

  /** Starts a twin and resolves once it listens. */
  static async start(options: ModelTwinOptions = {}): Promise<ModelTwin> {
    const twin = new ModelTwin(options);
    await new Promise<void>((resolve, reject) => {
      twin.#server.once("error", reject);
      twin.#server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
    });
    const { address, port } = twin.#server.address() as AddressInfo;
    twin.#url = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
    options.signal?.addEventListener("abort", () => void twin.close(), { once: true });
    return twin;
  }

  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    return this.#url;
  }

  get scenario(): Scenario {
    return this.#scenario;
  }

  /** Switches the scenario for the requests that follow; its fault counts from zero again. */
  setScenario(input: ScenarioInput | ScenarioName | Scenario): Scenario {
    this.#scenario = parseScenario(input);
    this.#faultUses = 0;
    return this.#scenario;
  }

  /** Every request so far, in arrival order (control calls excluded). */
  get requests(): readonly TwinRequestRecord[] {
    return this.#log.records;
  }

  clearRequests(): void {
    this.#log.clear();
  }

  /** Stops listening and drops open connections, stalled streams included. */
  async close(): Promise<void> {
    if (!this.#server.listening) return;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://twin");
    const body = await readRequestBody(request);
    const method = request.method ?? "GET";
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      return handleControl(request, response, url.pathname, body, {
        scenario: this.#scenario,
        setScenario: (scenario) => this.setScenario(scenario),
        requests: this.requests,
        clearRequests: () => this.clearRequests(),
      });
    }
    const record: TwinRequestRecord = {
      seq: ++this.#seq,
      at: new Date().toISOString(),
      method,
      path: redactPath(`${url.pathname}${url.search}`),
      headers: redactHeaders(request.headers),
      body,
      api: null,
      role: "unknown",
      scenario: this.#scenario.name,
      status: 404,
    };
    if (this.#key !== undefined) {
      const credentials = credentialsOf(request.headers, url);
      record.credential = credentials.length === 0 ? "none" : credentials.every((value) => value === this.#key) ? "expected" : "other";
      if (record.credential !== "expected") {
        this.#log.append({ ...record, status: 401 });
        return sendJson(response, 401, { error: { type: "authentication_error", message: "model twin: not the upstream's key" } });
      }
    }
    const route = routeRequest(method, url, request.headers["anthropic-version"] !== undefined);
    if (route.kind === "unknown") {
      this.#log.append(record);
      return sendJson(response, 404, { error: { type: "not_found", message: `the model twin does not serve ${method} ${url.pathname}` } });
    }
    if (route.kind === "discovery") {
      const answer = route.answer(this.#models, body);
      this.#log.append({ ...record, role: "discovery", status: answer.status });
      return sendJson(response, answer.status, answer.body);
    }
    return this.#answerModelCall(route.api, url, body, record, response);
  }

  async #answerModelCall(api: WireApi, url: URL, body: unknown, record: TwinRequestRecord, response: ServerResponse): Promise<void> {
    if (typeof body !== "object" || body === null) {
      this.#log.append({ ...record, api: api.name, status: 400 });
      return sendJson(response, 400, api.errorBody(400, "the request body is not a JSON object"));
    }
    const conversation = api.parse(body, url);
    const scenario = scenarioFor(this.#scenario, conversation.lastUserText);
    const role = requestRole(conversation);
    const fault = this.#takeFault(scenario.fault, role);
    const logged = { ...record, api: api.name, role, ...(fault === undefined ? {} : { fault: fault.kind }) };
    if (fault?.kind === "reset") {
      this.#log.append({ ...logged, status: null });
      response.socket?.resetAndDestroy();
      return;
    }
    if (fault?.kind === "status") {
      this.#log.append({ ...logged, status: fault.status });
      const message = fault.message ?? `model twin: injected ${fault.status}`;
      return sendJson(response, fault.status, api.errorBody(fault.status, message), retryAfterHeaders(fault.retryAfter));
    }
    const reply = decideReply(conversation, role, scenario, `call_twin_${record.seq}`);
    this.#log.append({ ...logged, status: 200, reply: summarize(reply) });
    const meta = {
      id: `twin_${record.seq}`,
      model: conversation.model || (this.#models[0] ?? "twin-model"),
      created: Math.floor(Date.now() / 1000),
      inputTokens: estimateTokens(conversation.allText),
      outputTokens: replyTokens(reply),
    };
    if (conversation.stream) await writeStream(response, api.streamFrames(reply, meta), fault);
    else await writeWhole(response, api.jsonBody(reply, meta), fault);
  }

  /** The scenario's fault when it applies to this request, counting its uses. */
  #takeFault(fault: Fault | undefined, role: string): Fault | undefined {
    if (fault === undefined || (fault.on === "main" && role !== "main")) return undefined;
    if (fault.times !== undefined && this.#faultUses >= fault.times) return undefined;
    this.#faultUses++;
    return fault;
  }
}

function summarize(reply: Reply): TwinRequestRecord["reply"] {
  return reply.kind === "text" ? { kind: "text", text: reply.text } : { kind: "tool", name: reply.call.name, args: reply.call.args };
}

/** Starts a model twin; see {@link ModelTwin}. */
export function startModelTwin(options: ModelTwinOptions = {}): Promise<ModelTwin> {
  return ModelTwin.start(options);
}
