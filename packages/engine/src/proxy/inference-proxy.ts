import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { definedFields } from "@baton/protocol/core";
import type { AgentResponse } from "./agent-response.ts";
import { AgentServer } from "./agent-server.ts";
import { forward } from "./forward.ts";
import { providerErrorBody } from "./provider-errors.ts";
import { REQUEST_FIELDS, topLevelFields } from "./request-body.ts";
import type { AgentRequest } from "./request-reader.ts";
import { RunGrant, type GrantOptions } from "./run-grant.ts";
import { upstreamHeaders, upstreamPath, upstreamTarget, type Upstream, type UpstreamTarget } from "./upstream-request.ts";
import { UsageTap } from "./usage-tap.ts";
import { passesThrough, proxyRoute, requestFacts, upstreamBody, type ProxyProvider, type ProxyRoute } from "./wire-routes.ts";

export type InferenceProxyOptions = {
  /** Each provider's upstream; a provider without one answers 502. */
  upstreams: Partial<Record<ProxyProvider, Upstream>>;
  /** Default 127.0.0.1; the port is always a free one. */
  host?: string;
};

/** The largest request body the proxy reads (a long conversation with images). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Baton's loopback inference proxy: agents reach their model only through it, with a run token
 * in place of the provider's key. It admits each model request against the run's limits,
 * sends it upstream with the real key, streams the answer back as it comes, reads its usage,
 * and records it. It never retries: a fault reaches the agent as the upstream sent it.
 *
 * @example
 * const proxy = await InferenceProxy.start({ upstreams: { anthropic: { baseUrl: "https://api.anthropic.com", key } } });
 * const grant = proxy.issue({ limits: { maxRequests: 20 }, emit: (type, data) => sink.append(type, data) });
 * // the agent: ANTHROPIC_BASE_URL = proxy.baseUrl("anthropic"), ANTHROPIC_API_KEY = grant.token
 * proxy.revoke(grant); // at the run's end: 401 from now on
 */
export class InferenceProxy implements AsyncDisposable {
  readonly #server: AgentServer;
  readonly #upstreams: Partial<Record<ProxyProvider, UpstreamTarget>> = {};
  readonly #grants = new Map<string, RunGrant>();
  #url = "";
  #port = 0;
  /** The same proxy on a unix socket, for sandboxed agents (see {@link unixSocket}). */
  #socket: Promise<{ server: AgentServer; path: string; dir: string }> | undefined;

  private constructor(options: InferenceProxyOptions) {
    for (const [provider, upstream] of Object.entries(options.upstreams) as Array<[ProxyProvider, Upstream | undefined]>) {
      if (upstream !== undefined) this.#upstreams[provider] = upstreamTarget(provider, upstream);
    }
    this.#server = this.#agentServer();
  }

  /** A server for the agents' side, TCP or unix socket. */
  #agentServer(): AgentServer {
    return new AgentServer((req, res) => this.#handle(req, res), {
      maxBodyBytes: MAX_BODY_BYTES,
      refusal: (_status, message) => ({ error: { type: "invalid_request_error", message: `Baton's inference proxy could not read the request: ${message}` } }),
    });
  }

  static async start(options: InferenceProxyOptions): Promise<InferenceProxy> {
    const proxy = new InferenceProxy(options);
    // The proxy lives as long as its runs: it never keeps the process alive by itself.
    await proxy.#server.listen({ port: 0, host: options.host ?? "127.0.0.1" });
    const { address, port } = proxy.#server.address;
    proxy.#url = `http://${address}:${port}`;
    proxy.#port = port;
    return proxy;
  }

  /** The TCP port the proxy listens on (a sandbox's relay listens on the same one inside). */
  get port(): number {
    return this.#port;
  }

  /**
   * The path of a unix socket serving the same routes, made at the first call in a folder only
   * Baton's user may open: a sandboxed agent, which has no network, reaches the proxy through
   * it (bound into its sandbox, behind a relay on 127.0.0.1 at {@link port}).
   */
  unixSocket(): Promise<string> {
    this.#socket ??= (async () => {
      const dir = mkdtempSync(join(tmpdir(), "baton-proxy-"));
      const path = join(dir, "proxy.sock");
      const server = this.#agentServer();
      await server.listen({ path });
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      return { server, path, dir };
    })();
    return this.#socket.then((socket) => socket.path);
  }

  /** `http://127.0.0.1:PORT`. */
  get url(): string {
    return this.#url;
  }

  /** The base URL an agent is given for a provider: `…/anthropic`, `…/openai/v1`, `…/gemini`. */
  baseUrl(provider: ProxyProvider): string {
    return provider === "openai" ? `${this.#url}/openai/v1` : `${this.#url}/${provider}`;
  }

  /** Whether requests for this provider have an upstream. */
  serves(provider: ProxyProvider): boolean {
    return this.#upstreams[provider] !== undefined;
  }

  /** A new run attempt's grant: its token is valid until {@link revoke}. */
  issue(options: GrantOptions): RunGrant {
    const grant = new RunGrant(options);
    this.#grants.set(grant.token, grant);
    return grant;
  }

  revoke(grant: RunGrant): void {
    grant.revoke();
    this.#grants.delete(grant.token);
  }

  async close(): Promise<void> {
    for (const grant of this.#grants.values()) grant.revoke();
    this.#grants.clear();
    for (const upstream of Object.values(this.#upstreams)) upstream.connections.close();
    const socket = await this.#socket?.catch(() => undefined);
    if (socket !== undefined) {
      await socket.server.close();
      rmSync(socket.dir, { recursive: true, force: true });
    }
    await this.#server.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #handle(req: AgentRequest, res: AgentResponse): void {
    const route = proxyRoute(req.method, req.url);
    if (route === undefined) return res.json(404, { error: { message: `Baton's inference proxy serves /anthropic, /openai and /gemini, not ${req.url}` } });
    const grant = this.#grants.get(tokenOf(req) ?? "");
    if (grant === undefined || grant.revoked) {
      return res.json(401, providerErrorBody(route.provider, 401, "this run token is not valid: it belongs to no running Baton run"));
    }
    const upstream = this.#upstreams[route.provider];
    if (upstream === undefined) {
      return res.json(502, providerErrorBody(route.provider, 502, `Baton's proxy has no upstream for ${route.provider}: configure [proxy.${route.provider}]`));
    }
    this.#proxy(req, res, route, grant, upstream);
  }

  #proxy(req: AgentRequest, res: AgentResponse, route: ProxyRoute, grant: RunGrant, upstream: UpstreamTarget): void {
    const path = upstreamPath(upstream, route.upstreamPath);
    const { method, body: raw } = req;
    const fields = route.api === undefined ? undefined : topLevelFields(raw, REQUEST_FIELDS);
    if (route.api === undefined || fields === undefined) {
      // Not inference (or not a JSON object, which the upstream will refuse): a read or a token count is
      // passed on and counted as such (one log at the run's end); anything else is refused.
      const called = route.upstreamPath.split("?")[0] ?? "";
      if (route.api === undefined && !passesThrough(method, route)) {
        grant.passThrough(route.provider, method, called, false);
        return res.json(403, providerErrorBody(route.provider, 403, `Baton's inference proxy passes model calls, token counts and reads; ${method} ${called} is none of them`));
      }
      grant.passThrough(route.provider, method, called, true);
      forward(upstream, path, upstreamHeaders(upstream, req.rawHeaders, raw.length), method, raw, res, { onHeaders: () => {}, onChunk: () => {}, onEnd: () => {} });
      return;
    }
    const values: Record<string, unknown> = {};
    for (const [name, field] of fields) values[name] = field.value;
    const facts = requestFacts(route, values, raw.length);
    const admitted = grant.admit(route.provider, route.api, facts);
    if (!admitted.admitted) return res.json(403, providerErrorBody(route.provider, 403, `Baton stopped this run: ${admitted.message}`));
    // The agent's bytes go on as they came unless the body had to change (a streamed chat completion asks for its usage).
    const body = upstreamBody(route, raw, fields);
    const tap = new UsageTap(route.api, facts.stream);
    const started = performance.now();
    let status: number | null = null;
    let ttfbMs: number | undefined;
    let untrack = () => {};
    const abort = forward(upstream, path, upstreamHeaders(upstream, req.rawHeaders, body.length), method, body, res, {
      onHeaders: (code) => {
        status = code;
        ttfbMs = performance.now() - started;
      },
      onChunk: (chunk) => tap.push(chunk),
      onEnd: (error) => {
        untrack();
        tap.end();
        const seen = tap.seen;
        grant.settle(admitted.admission, definedFields({ status, toolCalls: [...tap.toolCalls.values()], ttfbMs, error, usage: seen ? tap.usage : undefined, model: seen ? tap.model : undefined }));
      },
    });
    untrack = grant.track(abort);
  }
}

const KEY_QUERY = /[?&]key=/;

/** The run token wherever the agent's SDK puts its key: `x-api-key`, `Authorization: Bearer`, `x-goog-api-key`, `api-key`, or Gemini's `key=` query. */
export function tokenOf(req: Pick<AgentRequest, "rawHeaders" | "url">): string | undefined {
  // The first non-empty value of each header, read from the head as it came (no header object is built).
  let apiKey: string | undefined;
  let authorization: string | undefined;
  let googKey: string | undefined;
  let azureKey: string | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const value = raw[i + 1] as string;
    if (value.length === 0) continue;
    const name = (raw[i] as string).toLowerCase();
    if (name === "x-api-key") apiKey ??= value;
    else if (name === "authorization") authorization ??= value;
    else if (name === "x-goog-api-key") googKey ??= value;
    else if (name === "api-key") azureKey ??= value;
  }
  const url = req.url;
  const query = KEY_QUERY.test(url) ? (new URL(url, "http://proxy").searchParams.get("key") ?? undefined) : undefined;
  return apiKey ?? authorization?.replace(/^Bearer\s+/i, "") ?? googKey ?? azureKey ?? query;
}
