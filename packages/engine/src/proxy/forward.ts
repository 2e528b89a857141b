import type { ServerResponse } from "node:http";
import { AnswerError, AnswerReader, type AnswerHead } from "./answer-reader.ts";
import { answerHeaders, requestHead, type UpstreamTarget } from "./upstream-request.ts";

export type ForwardHooks = {
  /** The upstream's status line and headers arrived. */
  onHeaders: (status: number) => void;
  /** A piece of the body's data, after it was written on to the agent. */
  onChunk: (chunk: Buffer) => void;
  /** The call is over: `error` when it ended badly (reset, cut, the agent left). */
  onEnd: (error?: string) => void;
};

/**
 * Sends one request upstream on a kept-alive connection and streams the answer back as it
 * comes. Status and headers go to the agent through node:http; a chunked body (every streamed
 * answer) goes on as the bytes came, framing and all, written straight to the agent's
 * connection: it is neither decoded nor framed again (docs/adr/0044). Backpressure from the
 * agent pauses the upstream. A reset before the answer resets the agent's connection too; a cut
 * mid-body cuts it. Never retries. Returns an abort for the caller to cut the call.
 */
export function forward(target: UpstreamTarget, path: string, headers: string[], method: string, body: Buffer, res: ServerResponse, hooks: ForwardHooks): () => void {
  const upstream = target.connections.take();
  let ended = false;
  /** The head is stored on `res`, not yet written: it goes with the first bytes of the body, or alone at the end of the read that brought it. */
  let headHeld = false;
  /** The body's bytes go on as they came (a chunked answer to an agent that takes chunks). */
  let asItCame = false;

  const finish = (error?: string) => {
    if (ended) return;
    ended = true;
    upstream.removeListener("data", onData);
    upstream.removeListener("end", onUpstreamEnd);
    upstream.removeListener("close", onUpstreamClose);
    upstream.removeListener("error", onUpstreamError);
    if (error === undefined && reader.reusable) target.connections.give(upstream);
    else upstream.destroy();
    hooks.onEnd(error);
  };
  /** The upstream failed: before any answer the agent's connection is reset (it sees what a direct call would), after it cut. */
  const fail = (why: string) => {
    if (ended) return;
    if (!reader.headRead && res.socket !== null) res.socket.resetAndDestroy();
    else res.destroy();
    finish(why);
  };

  const reader = new AnswerReader(method, {
    head(head: AnswerHead) {
      res.writeHead(head.status, answerHeaders(head.rawHeaders));
      headHeld = true;
      asItCame = head.chunked && res.chunkedEncoding;
      hooks.onHeaders(head.status);
    },
    body(wire, data) {
      const agent = res.socket;
      let flowing = true;
      if (asItCame && agent !== null) {
        if (wire.length > 0) {
          // The head goes first (the socket is corked for this read: one write in all).
          if (headHeld) res.flushHeaders();
          headHeld = false;
          flowing = agent.write(wire);
        }
      } else {
        for (const piece of data) flowing = res.write(piece) && flowing;
        if (data.length > 0) headHeld = false;
      }
      for (const piece of data) hooks.onChunk(piece);
      if (!flowing) {
        upstream.pause();
        (agent ?? res).once("drain", () => upstream.resume());
      }
    },
    end() {
      // The last chunk (with an agent that takes chunks) and the response's end are node:http's.
      res.end();
      finish();
    },
  });

  /**
   * One read from the upstream: what it brings for the agent (the head, the body's bytes, the
   * response's end) goes in one write, and one wake-up of the agent. A head that came alone goes
   * on at once, by itself.
   */
  function onData(bytes: Buffer): void {
    const agent = res.socket;
    agent?.cork();
    try {
      reader.push(bytes);
      if (headHeld && !ended) res.flushHeaders();
      headHeld = false;
    } catch (error) {
      // Never thrown on: an answer the proxy cannot pass on ends its call, not Baton.
      const what = error instanceof AnswerError ? `the upstream's answer is not HTTP/1.1 Baton can read: ${error.message}` : `the upstream's answer could not be passed on: ${error instanceof Error ? error.message : String(error)}`;
      fail(what);
    } finally {
      agent?.uncork();
    }
  }
  /** The upstream's connection ended before the answer did: a reset before its head, a cut after. */
  const cut = () => fail(reader.headRead ? "the upstream cut the answer" : "ECONNRESET");
  function onUpstreamEnd(): void {
    if (!reader.closed()) cut();
  }
  function onUpstreamClose(): void {
    if (!reader.done) cut();
  }
  function onUpstreamError(error: NodeJS.ErrnoException): void {
    fail(error.code ?? error.message);
  }

  upstream.on("data", onData);
  upstream.on("end", onUpstreamEnd);
  upstream.on("close", onUpstreamClose);
  upstream.on("error", onUpstreamError);
  res.on("close", () => {
    if (!res.writableFinished && !ended) {
      upstream.destroy();
      finish("the agent closed the connection");
    }
  });
  upstream.cork();
  upstream.write(requestHead(method, path, headers), "latin1");
  if (body.length > 0) upstream.write(body);
  upstream.uncork();
  return () => {
    if (ended) return;
    upstream.destroy();
    res.destroy();
    finish("the run ended");
  };
}
