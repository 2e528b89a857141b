import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { ProxyProvider } from "./wire-routes.ts";

/** An upstream: where its API is and the key Baton sends it. */
export type Upstream = { baseUrl: string; key: string };

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host", "content-length"]);
/** Credentials the agent sends (its run token): never passed on. */
const CREDENTIALS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key", "proxy-authorization"]);

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/** The headers sent upstream: the agent's, without hop-by-hop ones and its token, with the real key in the provider's header. */
export function upstreamHeaders(provider: ProxyProvider, incoming: IncomingHttpHeaders, key: string, bodyLength: number): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || CREDENTIALS.has(name)) continue;
    headers[name] = value;
  }
  // Usage is read from the body as it passes: it must come uncompressed.
  headers["accept-encoding"] = "identity";
  headers["content-length"] = bodyLength;
  if (provider === "anthropic") headers["x-api-key"] = key;
  else if (provider === "openai") headers["authorization"] = `Bearer ${key}`;
  else headers["x-goog-api-key"] = key;
  return headers;
}

/** The upstream URL: its base URL, then the agent's path; Gemini's `key=` query (the token) is dropped. */
export function upstreamUrl(upstream: Upstream, path: string): URL {
  const url = new URL(`${upstream.baseUrl.replace(/\/+$/, "")}${path}`);
  url.searchParams.delete("key");
  return url;
}

export type ForwardHooks = {
  /** The upstream's status line and headers arrived. */
  onHeaders: (status: number) => void;
  /** A chunk of the body, after it was written on to the agent. */
  onChunk: (chunk: Buffer) => void;
  /** The call is over: `error` when it ended badly (reset, cut, the agent left). */
  onEnd: (error?: string) => void;
};

/**
 * Sends one request upstream and streams the answer back as it comes: status, headers and each
 * chunk written on at once (backpressure from the agent pauses the upstream). A reset before
 * the answer resets the agent's connection too; a cut mid-body cuts it. Never retries. Returns
 * an abort for the caller to cut the call.
 */
export function forward(url: URL, headers: OutgoingHttpHeaders, method: string, body: Buffer, res: ServerResponse, hooks: ForwardHooks): () => void {
  const secure = url.protocol === "https:";
  const send = secure ? httpsRequest : httpRequest;
  let ended = false;
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    hooks.onEnd(error);
  };
  const upstream = send(url, { method, headers, agent: secure ? httpsAgent : httpAgent });
  upstream.setNoDelay(true);
  upstream.on("response", (answer: IncomingMessage) => onAnswer(answer, res, hooks, end));
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    const why = error.code ?? error.message;
    if (!res.headersSent) res.socket?.resetAndDestroy();
    else res.destroy();
    end(why);
  });
  res.on("close", () => {
    if (!res.writableFinished) {
      upstream.destroy();
      end("the agent closed the connection");
    }
  });
  upstream.end(body);
  return () => {
    upstream.destroy();
    res.destroy();
    end("the run ended");
  };
}

function onAnswer(answer: IncomingMessage, res: ServerResponse, hooks: ForwardHooks, end: (error?: string) => void): void {
  const status = answer.statusCode ?? 502;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && (!HOP_BY_HOP.has(name) || name === "content-length")) headers[name] = value;
  }
  res.writeHead(status, headers);
  hooks.onHeaders(status);
  let wrote = false;
  answer.on("data", (chunk: Buffer) => {
    wrote = true;
    if (!res.write(chunk)) {
      answer.pause();
      res.once("drain", () => answer.resume());
    }
    hooks.onChunk(chunk);
  });
  answer.on("end", () => {
    res.end();
    end();
  });
  // The head goes on with the first chunk when both came in one read (the answer's first chunk
  // flows on the tick its `data` listener scheduled, before this one): one write, and one
  // wake-up of the agent, instead of two. A head that came alone goes on at once, by itself.
  process.nextTick(() => {
    if (!wrote && !res.writableEnded) res.flushHeaders();
  });
  answer.on("error", (error: NodeJS.ErrnoException) => {
    res.destroy();
    end(error.code ?? error.message);
  });
  answer.on("close", () => {
    if (answer.complete) return;
    res.destroy();
    end("the upstream cut the answer");
  });
}
