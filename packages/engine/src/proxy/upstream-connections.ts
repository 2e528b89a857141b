import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** How long a connection waits, idle, for its next request before it is closed. */
const IDLE_MS = 60_000;
/** The most idle connections kept to one upstream (what a burst leaves beyond them is closed). */
const MAX_IDLE = 256;

/** Where an upstream's connections go. */
export type ConnectionTarget = { host: string; port: number; secure: boolean; servername: string };

/**
 * The kept-alive connections to one upstream: a request takes an idle one (the most recently
 * used, whose server is the likeliest to still hold it open) or opens a new one, and gives it
 * back when its answer was read whole and the connection can carry another. An idle connection
 * keeps no process alive and closes after {@link IDLE_MS}, or when its server closes it; at most
 * {@link MAX_IDLE} are kept. Requests are never queued for a connection: each in flight has one.
 */
export class UpstreamConnections {
  readonly #target: ConnectionTarget;
  readonly #idle: Socket[] = [];

  constructor(target: ConnectionTarget) {
    this.#target = target;
  }

  /** A connection for one request: it is the caller's until {@link give} or its destruction. */
  take(): Socket {
    for (let socket = this.#idle.pop(); socket !== undefined; socket = this.#idle.pop()) {
      socket.removeListener("close", forgetOnClose);
      socket.removeListener("error", ignore);
      socket.removeListener("data", closeIdle);
      socket.removeListener("timeout", closeIdle);
      socket.setTimeout(0);
      if (socket.destroyed || !socket.readable || !socket.writable) {
        socket.destroy();
        continue;
      }
      socket.ref();
      return socket;
    }
    const { host, port, secure, servername } = this.#target;
    const socket = secure ? connectTls({ host, port, servername: servername === "" ? undefined : servername, ALPNProtocols: ["http/1.1"] }) : connect({ host, port });
    socket.setNoDelay(true);
    return socket;
  }

  /** A connection whose answer was read whole, back for the next request. */
  give(socket: Socket): void {
    if (socket.destroyed) return;
    if (this.#idle.length >= MAX_IDLE) return void socket.destroy();
    pools.set(socket, this.#idle);
    socket.on("close", forgetOnClose);
    socket.on("error", ignore);
    // Bytes from the server while no request is out: the connection is out of step.
    socket.on("data", closeIdle);
    socket.on("timeout", closeIdle);
    socket.setTimeout(IDLE_MS);
    socket.resume();
    socket.unref();
    this.#idle.push(socket);
  }

  /** Closes every idle connection. */
  close(): void {
    for (const socket of this.#idle.splice(0)) socket.destroy();
  }
}

/** The idle list each idle connection is on. */
const pools = new WeakMap<Socket, Socket[]>();

function forgetOnClose(this: Socket): void {
  const idle = pools.get(this);
  const at = idle?.indexOf(this) ?? -1;
  if (at !== -1) idle?.splice(at, 1);
}

/** An idle connection that timed out, or that its server wrote to out of turn. */
function closeIdle(this: Socket): void {
  this.destroy();
}

function ignore(): void {}
