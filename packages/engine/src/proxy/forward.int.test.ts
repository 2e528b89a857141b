import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { describe, test } from "node:test";
import type { AgentResponse } from "./agent-response.ts";
import { AgentServer } from "./agent-server.ts";
import { forward, type ForwardHooks } from "./forward.ts";
import { InferenceProxy } from "./inference-proxy.ts";
import { UpstreamConnections } from "./upstream-connections.ts";
import { upstreamTarget } from "./upstream-request.ts";

// How the proxy talks to its upstream: kept-alive connections (plain and TLS), a streamed
// answer passed on as its bytes came, and what it does with answers and agents that are not
// the usual ones.

const KEY = "sk-upstream-key";
const CERT = readFileSync(new URL("./testing/localhost-cert.pem", import.meta.url), "utf8");
const CERT_KEY = readFileSync(new URL("./testing/localhost-key.pem", import.meta.url), "utf8");
const BODY = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: [{ role: "user", content: "Say hello." }] });
const FRAMES = [
  'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-5","usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

/** A streamed Anthropic answer, a frame per write (each a chunk of its own). */
function streamAnswer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const frame of FRAMES) res.write(frame);
    res.end();
  });
}

async function listening<T extends { listen: (port: number, host: string, done: () => void) => unknown; address: () => unknown }>(server: T): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function proxyTo(baseUrl: string) {
  const proxy = await InferenceProxy.start({ upstreams: { anthropic: { baseUrl, key: KEY } } });
  const completed: Array<Record<string, unknown>> = [];
  const grant = proxy.issue({ limits: {}, emit: (type, data) => void (type === "model.request.completed" && completed.push(data)) });
  const call = () =>
    fetch(`${proxy.baseUrl("anthropic")}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": grant.token }, body: BODY });
  return { proxy, grant, completed, call };
}

describe("the proxy's upstream connections", () => {
  test("calls one after another share one kept-alive connection; each answer reaches the agent whole and is counted", async () => {
    const upstream = createServer(streamAnswer);
    let connections = 0;
    upstream.on("connection", () => (connections += 1));
    const port = await listening(upstream);
    const { proxy, completed, call } = await proxyTo(`http://127.0.0.1:${port}`);
    try {
      for (let i = 0; i < 5; i += 1) {
        const answer = await call();
        assert.equal(answer.status, 200);
        assert.equal(await answer.text(), FRAMES.join(""));
      }
      assert.equal(connections, 1);
      assert.deepEqual(
        completed.map((c) => [c["status"], c["input_tokens"], c["output_tokens"], c["error"]]),
        Array.from({ length: 5 }, () => [200, 12, 7, undefined]),
      );
    } finally {
      await proxy.close();
      upstream.closeAllConnections();
      upstream.close();
    }
  });

  test("an upstream over TLS: the host name is sent for SNI and checked against the certificate, and the connection is kept", async () => {
    const defaults = getCACertificates("default");
    setDefaultCACertificates([...defaults, CERT]);
    const upstream = createHttpsServer({ cert: CERT, key: CERT_KEY }, streamAnswer);
    const names: Array<string | false | null | undefined> = [];
    upstream.on("secureConnection", (socket) => names.push(socket.servername));
    const port = await listening(upstream);
    const { proxy, completed, call } = await proxyTo(`https://localhost:${port}`);
    try {
      for (let i = 0; i < 3; i += 1) assert.equal(await (await call()).text(), FRAMES.join(""));
      assert.deepEqual(names, ["localhost"]);
      assert.equal(completed.length, 3);
    } finally {
      setDefaultCACertificates(defaults);
      await proxy.close();
      upstream.closeAllConnections();
      upstream.close();
    }
    // A certificate the machine does not trust: the call fails before any answer, and is counted with its reason.
    const untrusted = createHttpsServer({ cert: CERT, key: CERT_KEY }, streamAnswer);
    const untrustedPort = await listening(untrusted);
    const other = await proxyTo(`https://localhost:${untrustedPort}`);
    try {
      await assert.rejects(other.call().then((a) => a.text()));
      assert.equal(other.completed.length, 1);
      assert.match(String(other.completed[0]?.["error"]), /SELF_SIGNED|CERT|certificate/i);
    } finally {
      await other.proxy.close();
      untrusted.close();
    }
  });

  test("an answer with connection: close closes its connection: the next call opens a new one", async () => {
    const upstream = createServer((req, res) => {
      res.setHeader("connection", "close");
      streamAnswer(req, res);
    });
    let connections = 0;
    upstream.on("connection", () => (connections += 1));
    const port = await listening(upstream);
    const { proxy, call } = await proxyTo(`http://127.0.0.1:${port}`);
    try {
      for (let i = 0; i < 2; i += 1) assert.equal(await (await call()).text(), FRAMES.join(""));
      assert.equal(connections, 2);
    } finally {
      await proxy.close();
      upstream.close();
    }
  });

  test("a kept connection its server closed while idle is left: the next request gets a new one", async () => {
    const server = createTcpServer((socket) => socket.end());
    const port = await listening(server);
    const connections = new UpstreamConnections({ host: "127.0.0.1", port, secure: false, servername: "" });
    try {
      const first = connections.take();
      await new Promise((resolve) => first.once("connect", resolve));
      const closed = new Promise((resolve) => first.once("close", resolve));
      connections.give(first);
      await closed;
      const second = connections.take();
      assert.notEqual(second, first);
      second.destroy();
    } finally {
      connections.close();
      server.close();
    }
  });

  test("an answer that is not HTTP/1.1 resets the agent's connection and is recorded with what was wrong", async () => {
    const upstream: TcpServer = createTcpServer((socket) => socket.once("data", () => socket.end("SSH-2.0-not-http\r\n\r\n")));
    const port = await listening(upstream);
    const { proxy, completed, call } = await proxyTo(`http://127.0.0.1:${port}`);
    try {
      await assert.rejects(call().then((a) => a.text()));
      assert.equal(completed.length, 1);
      assert.equal(completed[0]?.["status"], null);
      assert.match(String(completed[0]?.["error"]), /not HTTP\/1\.1 Baton can read: .*status line/);
    } finally {
      await proxy.close();
      upstream.close();
    }
  });

  test("an answer cut mid-stream is cut for the agent too, and recorded as cut", async () => {
    const upstream: TcpServer = createTcpServer((socket) =>
      socket.once("data", () => {
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${(FRAMES[0] as string).length.toString(16)}\r\n${FRAMES[0]}\r\n`);
        setTimeout(() => socket.destroy(), 50);
      }),
    );
    const port = await listening(upstream);
    const { proxy, completed, call } = await proxyTo(`http://127.0.0.1:${port}`);
    try {
      const answer = await call();
      assert.equal(answer.status, 200);
      await assert.rejects(answer.text());
      assert.equal(completed[0]?.["error"], "the upstream cut the answer");
      assert.equal(completed[0]?.["input_tokens"], 12, "the usage read before the cut is kept");
    } finally {
      await proxy.close();
      upstream.close();
    }
  });

  test("an agent speaking HTTP/1.0 gets the streamed answer's data, not its chunk framing, ended by the close", async () => {
    const upstream = createServer(streamAnswer);
    const port = await listening(upstream);
    const { proxy, grant, completed } = await proxyTo(`http://127.0.0.1:${port}`);
    try {
      const url = new URL(proxy.baseUrl("anthropic"));
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(`POST /anthropic/v1/messages HTTP/1.0\r\nx-api-key: ${grant.token}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`);
        });
        const got: Buffer[] = [];
        socket.on("data", (bytes) => got.push(bytes));
        socket.on("end", () => resolve(Buffer.concat(got).toString("utf8")));
        socket.on("error", reject);
      });
      const [head, body] = raw.split("\r\n\r\n", 2) as [string, string];
      assert.match(head, /^HTTP\/1\.1 200/);
      assert.doesNotMatch(head, /transfer-encoding/i);
      assert.equal(raw.slice(head.length + 4), FRAMES.join(""));
      assert.ok(body.startsWith("event: message_start"));
      assert.equal(completed[0]?.["output_tokens"], 7);
    } finally {
      await proxy.close();
      upstream.closeAllConnections();
      upstream.close();
    }
  });

  /** An upstream that sends a whole streamed answer in one write, the hooks of a forward to it, and a call through it. */
  async function oneReadAnswer(hooks: (res: AgentResponse) => ForwardHooks) {
    const chunked = FRAMES.map((frame) => `${Buffer.byteLength(frame).toString(16)}\r\n${frame}\r\n`).join("");
    const upstream: TcpServer = createTcpServer((socket) =>
      socket.once("data", () => socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${chunked}0\r\n\r\n`)),
    );
    const target = upstreamTarget("anthropic", { baseUrl: `http://127.0.0.1:${await listening(upstream)}`, key: KEY });
    const server = new AgentServer((req, res) => forward(target, "/v1/messages", ["content-type", "application/json"], "POST", req.body, res, hooks(res)), {
      maxBodyBytes: 1024 * 1024,
      refusal: (_status, message) => ({ error: { message } }),
    });
    await server.listen({ port: 0, host: "127.0.0.1" });
    return {
      call: () => fetch(`http://127.0.0.1:${server.address.port}/`, { method: "POST", body: BODY }),
      close: () => {
        target.connections.close();
        void server.close();
        upstream.close();
      },
    };
  }

  test("an answer's data reaches the hooks, and its end is settled, only once its bytes have gone on to the agent", async () => {
    // The whole answer in one read: its head, every chunk and its end. For each hook call: the bytes still held in the agent's socket (corked), and the data.
    const seen: Array<{ hook: string; corked: number; data?: string }> = [];
    const { call, close } = await oneReadAnswer((res) => ({
      onHeaders: () => {},
      onChunk: (chunk) => seen.push({ hook: "chunk", corked: res.socket.writableCorked, data: chunk.toString("utf8") }),
      onEnd: (error) => seen.push({ hook: "end", corked: res.socket.writableCorked, data: error }),
    }));
    try {
      const answer = await call();
      assert.equal(await answer.text(), FRAMES.join(""));
      assert.deepEqual(seen, [...FRAMES.map((frame) => ({ hook: "chunk", corked: 0, data: frame })), { hook: "end", corked: 0, data: undefined }]);
    } finally {
      close();
    }
  });

  test("a hook that throws on an answer's data ends that call with the error, not the process", async () => {
    const ends: Array<string | undefined> = [];
    const { call, close } = await oneReadAnswer(() => ({
      onHeaders: () => {},
      onChunk: () => {
        throw new Error("the tap broke");
      },
      onEnd: (error) => ends.push(error),
    }));
    try {
      const answer = await call();
      // The bytes had gone on before the hook ran: the agent has its answer.
      assert.equal(await answer.text(), FRAMES.join(""));
      assert.deepEqual(ends, ["the upstream's answer could not be read: the tap broke"]);
    } finally {
      close();
    }
  });
});
