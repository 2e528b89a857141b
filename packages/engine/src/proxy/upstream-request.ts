import { isIP } from "node:net";
import { UpstreamConnections } from "./upstream-connections.ts";
import type { ProxyProvider } from "./wire-routes.ts";

/** An upstream: where its API is and the key Baton sends it. */
export type Upstream = { baseUrl: string; key: string };

/**
 * Where an upstream's requests go, read once from its base URL when the proxy starts: the
 * options of each request to it and the lines of its head that never change.
 */
export type UpstreamTarget = {
  baseUrl: string;
  secure: boolean;
  /** Its kept-alive connections. */
  connections: UpstreamConnections;
  /** The host to connect to (an IPv6 address without its brackets). */
  host: string;
  port: number;
  /** TLS's server name: the host name, or "" for an address. */
  servername: string;
  /** The base URL's path without its trailing slashes: the agent's path is appended. */
  basePath: string;
  /** The `Host` header, and the real key in the provider's header. */
  fixedHeaders: readonly string[];
};

/** Hop-by-hop headers: never passed on, either way (a response keeps its `content-length`). */
export const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host", "content-length"]);
/**
 * Credentials the agent sends (its run token), its wish of encoding, and `expect` (the proxy
 * sends a body whole, never waiting for a 100 Continue): never passed on.
 */
const DROPPED = new Set([...HOP_BY_HOP, "authorization", "x-api-key", "x-goog-api-key", "api-key", "proxy-authorization", "accept-encoding", "expect"]);

/** An upstream's target, made once per upstream. */
export function upstreamTarget(provider: ProxyProvider, upstream: Upstream): UpstreamTarget {
  const url = new URL(upstream.baseUrl);
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
  const servername = secure && isIP(host) === 0 ? host : "";
  const key = provider === "anthropic" ? ["x-api-key", upstream.key] : provider === "openai" ? ["authorization", `Bearer ${upstream.key}`] : ["x-goog-api-key", upstream.key];
  return {
    baseUrl: upstream.baseUrl,
    secure,
    connections: new UpstreamConnections({ host, port, secure, servername }),
    host,
    port,
    servername,
    basePath: url.pathname.replace(/\/+$/, ""),
    fixedHeaders: ["host", url.host, ...key],
  };
}

/**
 * A path of plain characters with no segment that starts with a dot (`.`, `%2e`), and a query
 * with no escape and no `key` anywhere in it: sent as it came.
 */
const PLAIN_PATH = /^(?!.*\/(?:\.|%2e))[\w\-.~!$&'()*+,;=:@/%]*(?:\?(?!.*key)[\w\-.~!$&'()*+,;=:@/?]*)?$/i;

/**
 * The path and query sent upstream: the base URL's path, then the agent's. Gemini's `key=`
 * query (the token) is dropped; a path that is not plain is made what the WHATWG URL parser
 * makes of it.
 */
export function upstreamPath(target: UpstreamTarget, path: string): string {
  if (PLAIN_PATH.test(path)) return `${target.basePath}${path}`;
  const url = new URL(`${target.baseUrl.replace(/\/+$/, "")}${path}`);
  url.searchParams.delete("key");
  return `${url.pathname}${url.search}`;
}

/**
 * The head sent upstream as name/value pairs: the agent's headers as they came, without
 * hop-by-hop ones, its token and its accepted encodings; the upstream's host and real key;
 * `identity` (usage is read from the body as it passes: it must come uncompressed); the length.
 */
export function upstreamHeaders(target: UpstreamTarget, rawHeaders: readonly string[], bodyLength: number): string[] {
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (!DROPPED.has(name.toLowerCase())) headers.push(name, rawHeaders[i + 1] as string);
  }
  headers.push(...target.fixedHeaders, "accept-encoding", "identity", "content-length", String(bodyLength));
  return headers;
}

/**
 * A request's head as it is written upstream: request line and headers (name/value pairs).
 * The method and path come from the agent's request as the request reader read it (a token, a
 * path of visible characters), the headers from its head and {@link upstreamHeaders}: none holds
 * a line break.
 */
export function requestHead(method: string, path: string, headers: readonly string[]): string {
  let head = `${method} ${path} HTTP/1.1\r\n`;
  for (let i = 0; i + 1 < headers.length; i += 2) head += `${headers[i] as string}: ${headers[i + 1] as string}\r\n`;
  return `${head}\r\n`;
}

/** The headers of the upstream's answer passed on to the agent, as name/value pairs. */
export function answerHeaders(rawHeaders: readonly string[]): string[] {
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) || lower === "content-length") headers.push(name, rawHeaders[i + 1] as string);
  }
  return headers;
}
