import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { AgentResponse } from "./agent-response.ts";
import { RequestError, RequestReader, MAX_HEAD_BYTES, type AgentRequest } from "./request-reader.ts";

/** Answers one request: `response` must end, or be destroyed, on every path. */
export type AgentHandler = (request: AgentRequest, response: AgentResponse) => void;

export type AgentServerOptions = {
  /** The largest request body read; a larger one is answered 413. */
  maxBodyBytes: number;
  /** The JSON body answering a request that could not be read, from its status and what was wrong. */
  refusal: (status: number, message: string) => unknown;
  /** How long a connection may sit with no request under way before it is closed. Default 60 s. */
  idleMs?: number;
};

const CONTINUE = Buffer.from("HTTP/1.1 100 Continue\r\n\r\n");

/**
 * The proxy's side towards its agents: HTTP/1.1 over TCP or a unix socket, read and written by
 * Baton (docs/adr/0046). Each connection's requests are answered one at a time, in order
 * (pipelined ones wait their turn); it is kept alive between them as the agent asks, and
 * closed after {@link AgentServerOptions.idleMs} with no request under way. A request that
 * cannot be read is answered with what was wrong, and its connection closed.
 */
export class AgentServer {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #handler: AgentHandler;
  readonly #options: AgentServerOptions;

  constructor(handler: AgentHandler, options: AgentServerOptions) {
    this.#handler = handler;
    this.#options = options;
    this.#server = createServer({ noDelay: true, allowHalfOpen: true }, (socket) => this.#serve(socket));
  }

  /** Listens on a TCP port of `host` (0: a free one) or a unix socket's path; the server keeps no process alive. */
  async listen(where: { port: number; host: string } | { path: string }): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      const listening = () => {
        this.#server.removeListener("error", reject);
        resolve();
      };
      if ("path" in where) this.#server.listen(where.path, listening);
      else this.#server.listen(where.port, where.host, listening);
    });
    this.#server.unref();
  }

  get address(): AddressInfo {
    return this.#server.address() as AddressInfo;
  }

  /** Stops listening and closes every connection, mid-answer or idle. */
  async close(): Promise<void> {
    if (!this.#server.listening) return;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  #serve(socket: Socket): void {
    const { maxBodyBytes, idleMs = 60_000 } = this.#options;
    this.#sockets.add(socket);
    const reader = new RequestReader(maxBodyBytes, () => socket.write(CONTINUE));
    /** The answer under way. */
    let response: AgentResponse | undefined;

    const answered = (keepAlive: boolean) => {
      response = undefined;
      if (!keepAlive) return void socket.end();
      socket.setTimeout(idleMs);
      if (socket.isPaused()) socket.resume();
      // A request that came behind this one is read in a later turn: the call that ended settles first.
      if (reader.begun) setImmediate(serveNext);
    };
    const refuse = (error: unknown) => {
      const status = error instanceof RequestError ? error.status : 400;
      const answer = new AgentResponse(socket, { method: "POST", http11: true, keepAlive: false }, () => socket.end());
      answer.json(status, this.#options.refusal(status, error instanceof Error ? error.message : String(error)));
    };
    function serveNext(): void {
      if (response !== undefined || socket.destroyed || !socket.writable) return;
      let request: AgentRequest | undefined;
      try {
        request = reader.next();
      } catch (error) {
        return refuse(error);
      }
      if (request === undefined) return;
      socket.setTimeout(0);
      response = new AgentResponse(socket, request, answered);
      handle(request, response);
    }
    const handle = (request: AgentRequest, answer: AgentResponse) => {
      try {
        this.#handler(request, answer);
      } catch (error) {
        // Never thrown: a fault of the proxy's own ends this answer, not the process.
        if (answer.started) answer.destroy();
        else answer.json(500, this.#options.refusal(500, `Baton's proxy failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    };

    socket.setTimeout(idleMs);
    socket.on("timeout", () => {
      if (response === undefined) socket.destroy();
    });
    socket.on("data", (bytes: Buffer) => {
      reader.push(bytes);
      if (response === undefined) serveNext();
      // Requests sent ahead of their turn: read no more of them than one could hold.
      else if (reader.holding > maxBodyBytes + MAX_HEAD_BYTES) socket.pause();
    });
    // The agent closed its side: it has left, as node:http takes it. An answer under way is cut, and its call with it.
    socket.on("end", () => {
      if (response === undefined) socket.end();
      else socket.destroy();
    });
    // What went wrong reaches the answer under way through the close.
    socket.on("error", () => {});
    socket.on("close", () => {
      this.#sockets.delete(socket);
      response?.closed();
      response = undefined;
    });
  }
}
