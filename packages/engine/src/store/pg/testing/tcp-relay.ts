// For tests: a TCP relay in front of PostgreSQL that can play a server restart as a client sees
// one (every connection dropped, new ones refused for a while, then accepted again).
import net from "node:net";

export type TcpRelay = {
  /** The target URL with the relay's host and port. */
  url: string;
  /** Connections relayed so far. */
  readonly accepted: number;
  /** Destroys every relayed connection, refuses new ones for `downMs`, then accepts again; resolves once it does. */
  restart(downMs: number): Promise<void>;
  close(): Promise<void>;
};

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

export async function tcpRelay(targetUrl: string): Promise<TcpRelay> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(socket);
      socket.on("error", () => other.destroy());
      socket.on("close", () => {
        sockets.delete(socket);
        other.destroy();
      });
      socket.pipe(other);
    }
  });
  const port = await listen(server, 0);
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: url.toString(),
    get accepted() {
      return accepted;
    },
    async restart(downMs) {
      const closed = closeServer();
      for (const socket of sockets) socket.destroy();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await listen(server, port);
    },
    async close() {
      const closed = closeServer();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
