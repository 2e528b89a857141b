import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { AgentServer, type AgentHandler } from "./agent-server.ts";
import type { AgentRequest } from "./request-reader.ts";

// The proxy's side towards its agents, over real sockets: how requests are read and answers
// written, kept-alive and pipelined connections, and the requests and agents that are not the
// usual ones.

/** A server with `handler` on a free port, for the test's length. */
async function serving(handler: AgentHandler, idleMs?: number): Promise<AgentServer & AsyncDisposable> {
  const server = new AgentServer(handler, { maxBodyBytes: 1024, refusal: (status, message) => ({ error: { status, message } }), idleMs });
  await server.listen({ port: 0, host: "127.0.0.1" });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

/** A raw connection to the server: what it sent so far, and whether it has closed. */
async function agent(server: AgentServer): Promise<{ socket: Socket; received: () => string; closed: Promise<void>; until: (text: string | RegExp) => Promise<string> }> {
  const socket = connect(server.address.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let got = "";
  socket.on("data", (bytes: Buffer) => (got += bytes.toString("latin1")));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => {});
  const until = async (text: string | RegExp) => {
    for (let waited = 0; waited < 5000; waited += 5) {
      if (typeof text === "string" ? got.includes(text) : text.test(got)) return got;
      await sleep(5);
    }
    assert.fail(`never received ${String(text)}; got ${JSON.stringify(got)}`);
  };
  return { socket, received: () => got, closed, until };
}

/** Answers each request with its method, path and body. */
const echo: AgentHandler = (request, response) => response.send(200, ["content-type", "text/plain"], `${request.method} ${request.url} ${request.body.toString()}`);

const post = (path: string, body: string, extra = "") => `POST ${path} HTTP/1.1\r\nhost: proxy\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe("the proxy's agent side", () => {
  test("requests one after another on one kept-alive connection are each answered, and the connection stays open", async () => {
    await using server = await serving(echo);
    const a = await agent(server);
    a.socket.write(post("/one", "1"));
    await a.until("POST /one 1");
    a.socket.write(post("/two", "22"));
    const got = await a.until("POST /two 22");
    assert.equal(got.match(/HTTP\/1\.1 200 OK\r\n/g)?.length, 2);
    assert.match(got, /content-length: 11\r\n/);
    assert.doesNotMatch(got, /connection: close/);
    assert.equal(a.socket.destroyed, false);
    a.socket.destroy();
  });

  test("connection: close, and HTTP/1.0 without keep-alive, close the connection after the answer; HTTP/1.0 with keep-alive keeps it", async () => {
    await using server = await serving(echo);
    const close = await agent(server);
    close.socket.write(post("/a", "x", "connection: close\r\n"));
    await close.closed;
    assert.match(close.received(), /connection: close\r\n[\s\S]*POST \/a x$/);
    const old = await agent(server);
    old.socket.write("GET /b HTTP/1.0\r\n\r\n");
    await old.closed;
    assert.match(old.received(), /^HTTP\/1\.1 200 OK[\s\S]*GET \/b $/);
    const kept = await agent(server);
    kept.socket.write("GET /c HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
    await kept.until("GET /c ");
    assert.match(kept.received(), /connection: keep-alive\r\n/);
    kept.socket.write("GET /d HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
    await kept.until("GET /d ");
    kept.socket.destroy();
  });

  test("pipelined requests are answered in order, each only after the one before it has ended", async () => {
    const order: string[] = [];
    await using server = await serving((request, response) => {
      order.push(`start ${request.url}`);
      // The first answer takes a while: the second must wait for it.
      setTimeout(() => {
        order.push(`end ${request.url}`);
        response.send(200, [], request.url);
      }, request.url === "/first" ? 50 : 0);
    });
    const a = await agent(server);
    a.socket.write(`${post("/first", "")}${post("/second", "")}GET /third HTTP/1.1\r\nhost: p\r\n\r\n`);
    const got = await a.until("/third");
    assert.deepEqual(order, ["start /first", "end /first", "start /second", "end /second", "start /third", "end /third"]);
    assert.match(got, /\/first[\s\S]*\/second[\s\S]*\/third$/);
    a.socket.destroy();
  });

  test("an agent that expects 100-continue gets it before it sends the body, then the answer", async () => {
    await using server = await serving(echo);
    const a = await agent(server);
    a.socket.write("POST /e HTTP/1.1\r\nhost: p\r\nexpect: 100-continue\r\ncontent-length: 4\r\n\r\n");
    await a.until("HTTP/1.1 100 Continue\r\n\r\n");
    a.socket.write("body");
    const got = await a.until("POST /e body");
    assert.match(got, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    a.socket.destroy();
  });

  test("a request that cannot be read is answered with its status and what was wrong, and its connection closed; the server serves on", async () => {
    await using server = await serving(echo);
    for (const [bytes, status] of [
      ["NOT HTTP AT ALL\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\n\r\n", 400],
      [`GET / HTTP/1.1\r\nhost: p\r\nx: ${"a".repeat(20_000)}`, 431],
      [post("/big", "x".repeat(2000)), 413],
    ] as const) {
      const a = await agent(server);
      a.socket.write(bytes);
      await a.closed;
      const [head = "", body = ""] = a.received().split("\r\n\r\n");
      assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), bytes.slice(0, 40));
      assert.match(head, /connection: close/);
      assert.equal((JSON.parse(body) as { error: { status: number } }).error.status, status);
    }
    const a = await agent(server);
    a.socket.write(post("/after", "ok"));
    await a.until("POST /after ok");
    a.socket.destroy();
  });

  test("a handler that throws answers 500 and leaves the connection and the server serving", async () => {
    await using server = await serving((request, response) => {
      if (request.url === "/throw") throw new Error("broken");
      echo(request, response);
    });
    const a = await agent(server);
    a.socket.write(post("/throw", ""));
    await a.until(/500 Internal Server Error[\s\S]*Baton's proxy failed: broken/);
    a.socket.write(post("/fine", "y"));
    await a.until("POST /fine y");
    a.socket.destroy();
  });

  test("an idle connection is closed after the idle time, but never while its answer is under way", async () => {
    await using server = await serving((request, response) => {
      response.head(200, [], false);
      response.flush();
      setTimeout(() => response.end(Buffer.from("late")), 250);
    }, 100);
    const a = await agent(server);
    a.socket.write("GET /slow HTTP/1.1\r\nhost: p\r\n\r\n");
    await a.until("4\r\nlate\r\n0\r\n\r\n");
    const answered = performance.now();
    await a.closed;
    assert.ok(performance.now() - answered >= 50, "closed after being idle, not at the answer's end");
  });

  test("a body of no known length is framed in chunks for HTTP/1.1 and runs to the close for HTTP/1.0; chunks passed on frame the body whatever length is given; a HEAD answer has none", async () => {
    const stream: AgentHandler = (request, response) => {
      if (request.url === "/wire") {
        // Chunks passed on as they came, with a length in the head as well: the chunks frame the body, the length is dropped.
        response.head(200, ["content-type", "text/plain", "content-length", "99"], true);
        response.writeWire(Buffer.from("3\r\nabc\r\n"));
        return response.end();
      }
      response.head(200, ["content-type", "text/plain"], false);
      response.write(Buffer.from("hello "));
      response.end(Buffer.from("world"));
    };
    await using server = await serving(stream);
    const v11 = await agent(server);
    v11.socket.write("GET / HTTP/1.1\r\nhost: p\r\n\r\n");
    assert.match(await v11.until("0\r\n\r\n"), /transfer-encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n$/);
    v11.socket.destroy();
    const v10 = await agent(server);
    v10.socket.write("GET / HTTP/1.0\r\n\r\n");
    await v10.closed;
    assert.match(v10.received(), /connection: close\r\n\r\nhello world$/);
    assert.doesNotMatch(v10.received(), /transfer-encoding/);
    const wire = await agent(server);
    wire.socket.write("GET /wire HTTP/1.1\r\nhost: p\r\n\r\n");
    assert.match(await wire.until("0\r\n\r\n"), /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n$/);
    wire.socket.destroy();
    const head = await agent(server);
    head.socket.write("HEAD / HTTP/1.1\r\nhost: p\r\n\r\nGET /next HTTP/1.1\r\nhost: p\r\n\r\n");
    const got = await head.until(/0\r\n\r\n$/);
    assert.equal(got.split("HTTP/1.1 200 OK").length, 3, "the HEAD answer has no body: the next answer follows its head");
    head.socket.destroy();
  });

  test("an agent that leaves mid-answer, or closes its side of the connection, ends that answer for the handler", async () => {
    const ended: string[] = [];
    await using server = await serving((request: AgentRequest, response) => {
      response.onClose(() => ended.push(request.url));
      response.head(200, [], true);
      response.flush();
    });
    const leaving = await agent(server);
    leaving.socket.write("GET /leave HTTP/1.1\r\nhost: p\r\n\r\n");
    await leaving.until("transfer-encoding: chunked");
    leaving.socket.destroy();
    const closing = await agent(server);
    closing.socket.write("GET /close HTTP/1.1\r\nhost: p\r\n\r\n");
    await closing.until("transfer-encoding: chunked");
    closing.socket.end();
    await closing.closed;
    for (let waited = 0; ended.length < 2 && waited < 5000; waited += 5) await sleep(5);
    assert.deepEqual(ended.sort(), ["/close", "/leave"]);
  });

  test("the same server on a unix socket", async () => {
    const dir = mkdtempSync(join(tmpdir(), "baton-agent-server-"));
    const server = new AgentServer(echo, { maxBodyBytes: 1024, refusal: (status, message) => ({ status, message }) });
    try {
      await server.listen({ path: join(dir, "s.sock") });
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(join(dir, "s.sock"));
        let got = "";
        socket.on("data", (bytes: Buffer) => (got += bytes.toString()));
        socket.on("close", () => resolve(got));
        socket.on("error", reject);
        socket.write(post("/unix", "u", "connection: close\r\n"));
      });
      assert.match(answer, /^HTTP\/1\.1 200 OK[\s\S]*POST \/unix u$/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("close() ends every connection, idle or mid-answer", async () => {
    const server = await serving((_request, response) => {
      response.head(200, [], true);
      response.flush();
    });
    const idle = await agent(server);
    const busy = await agent(server);
    busy.socket.write("GET / HTTP/1.1\r\nhost: p\r\n\r\n");
    await busy.until("200 OK");
    await server.close();
    await Promise.all([idle.closed, busy.closed]);
  });
});
