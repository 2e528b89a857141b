import type { AgentResponse } from "./agent-response.ts";
import { AnswerError, AnswerReader, type AnswerHead } from "./answer-reader.ts";
import { answerHeaders, requestHead, type UpstreamTarget } from "./upstream-request.ts";

export type ForwardHooks = {
  /** The upstream's status line and headers arrived. */
  onHeaders: (status: number) => void;
  /** A piece of the body's data, once the read that brought it has been sent on to the agent. */
  onChunk: (chunk: Buffer) => void;
  /** The call is over (after its last bytes were sent on): `error` when it ended badly (reset, cut, the agent left). */
  onEnd: (error?: string) => void;
};

/**
 * Sends one request upstream on a kept-alive connection and streams the answer back as it
 * comes. A chunked body (every streamed answer) goes on to an agent that takes chunks as the
 * bytes came, framing and all: it is neither decoded nor framed again (docs/adr/0044). What one
 * read from the upstream brings for the agent goes in one write. Backpressure from the
 * agent pauses the upstream. A reset before the answer resets the agent's connection too; a cut
 * mid-body cuts it. Never retries. Returns an abort for the caller to cut the call.
 */
export function forward(target: UpstreamTarget, path: string, headers: string[], method: string, body: Buffer, res: AgentResponse, hooks: ForwardHooks): () => void {
  const upstream = target.connections.take();
  let ended = false;
  /** A read from the upstream is being passed on: the agent's socket is corked until it is. */
  let reading = false;
  /** The body's data of that read, for {@link ForwardHooks.onChunk} once the read has gone on. */
  const read: Buffer[] = [];
  /** The answer ended in that read: the call finishes once the read has gone on. */
  let complete = false;

  /** The data read so far, to the hook: after it went on to the agent, so reading it never holds the agent up. */
  const passRead = () => {
    for (const piece of read.splice(0)) hooks.onChunk(piece);
  };
  const finish = (error?: string) => {
    if (ended) return;
    ended = true;
    passRead();
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
    if (!reader.headRead) res.reset();
    else res.destroy();
    finish(why);
  };

  const reader = new AnswerReader(method, {
    head(head: AnswerHead) {
      // Held until the read's end, to go with the body's first bytes.
      res.head(head.status, answerHeaders(head.rawHeaders), head.chunked);
      hooks.onHeaders(head.status);
    },
    body(wire, data) {
      let flowing = true;
      if (res.takesWire) {
        if (wire.length > 0) flowing = res.writeWire(wire);
      } else {
        for (const piece of data) flowing = res.write(piece) && flowing;
      }
      for (const piece of data) read.push(piece);
      if (!flowing) {
        upstream.pause();
        res.socket.once("drain", () => upstream.resume());
      }
    },
    end() {
      res.end();
      if (reading) complete = true;
      else finish();
    },
  });

  /**
   * One read from the upstream: what it brings for the agent (the head, the body's bytes, the
   * response's end) goes in one write, and one wake-up of the agent. A head that came alone goes
   * on at once, by itself. Only once the write is made are the read's data given to the hooks
   * and a complete answer settled: the agent never waits for Baton's reading of its answer.
   */
  function onData(bytes: Buffer): void {
    const agent = res.socket;
    agent.cork();
    reading = true;
    try {
      reader.push(bytes);
      // A head that came alone goes on at once.
      if (!ended) res.flush();
    } catch (error) {
      failOn(error, "passed on");
    } finally {
      reading = false;
      agent.uncork();
    }
    try {
      passRead();
      if (complete) finish();
    } catch (error) {
      failOn(error, "read");
    }
  }
  /** Never thrown on: an answer the proxy cannot pass on, or read once passed on, ends its call, not Baton. */
  function failOn(error: unknown, what: "passed on" | "read"): void {
    fail(error instanceof AnswerError ? `the upstream's answer is not HTTP/1.1 Baton can read: ${error.message}` : `the upstream's answer could not be ${what}: ${error instanceof Error ? error.message : String(error)}`);
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
  res.onClose(() => {
    if (ended) return;
    upstream.destroy();
    finish("the agent closed the connection");
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
