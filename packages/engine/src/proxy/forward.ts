import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { answerHeaders, type UpstreamTarget } from "./upstream-request.ts";

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
export function forward(target: UpstreamTarget, path: string, headers: string[], method: string, body: Buffer, res: ServerResponse, hooks: ForwardHooks): () => void {
  let ended = false;
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    hooks.onEnd(error);
  };
  // The target's host and port, and the head as name/value pairs: nothing is parsed or validated twice a call.
  const options = { host: target.host, port: target.port, servername: target.servername, path, method, headers, agent: target.agent };
  const upstream = target.secure ? httpsRequest(options) : httpRequest(options);
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
  res.writeHead(status, answerHeaders(answer.rawHeaders));
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
