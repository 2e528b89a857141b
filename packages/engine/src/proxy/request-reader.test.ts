import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RequestError, RequestReader, type AgentRequest } from "./request-reader.ts";

const BODY = '{"model":"claude-sonnet-4-5","stream":true,"messages":[{"role":"user","content":"Say hello."}]}';
const HEAD = `POST /anthropic/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nx-api-key: token\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n`;
const CHUNKED_HEAD = "POST /openai/v1/chat/completions HTTP/1.1\r\nhost: proxy\r\ntransfer-encoding: chunked\r\n\r\n";
const CHUNKED_BODY = `${(20).toString(16)}\r\n${BODY.slice(0, 20)}\r\n${(BODY.length - 20).toString(16)};ext=1\r\n${BODY.slice(20)}\r\n0\r\nx-trailer: t\r\n\r\n`;

/** Every request read from `bytes`, pushed cut at the given offsets. */
function readAll(bytes: string, cuts: number[] = [], reader = new RequestReader(1024 * 1024, () => {})): AgentRequest[] {
  const buffer = Buffer.from(bytes, "latin1");
  const requests: AgentRequest[] = [];
  let from = 0;
  for (const cut of [...cuts, buffer.length]) {
    reader.push(buffer.subarray(from, cut));
    from = cut;
    for (let request = reader.next(); request !== undefined; request = reader.next()) requests.push(request);
  }
  return requests;
}

function refused(bytes: string, maxBodyBytes = 1024 * 1024): RequestError {
  try {
    readAll(bytes, [], new RequestReader(maxBodyBytes, () => {}));
  } catch (error) {
    assert.ok(error instanceof RequestError, `a RequestError, not ${String(error)}`);
    return error;
  }
  assert.fail(`not refused: ${JSON.stringify(bytes.slice(0, 60))}`);
}

describe("RequestReader", () => {
  test("a request with a length, cut at every byte: one request, its head as it came and its body whole", () => {
    const whole = HEAD + BODY;
    for (let cut = 0; cut <= whole.length; cut += 1) {
      const requests = readAll(whole, [cut]);
      assert.equal(requests.length, 1, `cut at ${cut}`);
      const [request] = requests as [AgentRequest];
      assert.equal(request.method, "POST");
      assert.equal(request.url, "/anthropic/v1/messages");
      assert.equal(request.http11, true);
      assert.equal(request.keepAlive, true);
      assert.deepEqual(request.rawHeaders, ["Host", "127.0.0.1:4000", "x-api-key", "token", "content-type", "application/json", "content-length", String(BODY.length)]);
      assert.equal(request.body.toString("latin1"), BODY, `cut at ${cut}`);
    }
  });

  test("a chunked body, cut at every byte and at every pair of bytes near its end: the data whole, framing and trailers off", () => {
    const whole = CHUNKED_HEAD + CHUNKED_BODY;
    for (let cut = 1; cut < whole.length; cut += 1) {
      for (const second of [cut + 1, cut + 5, whole.length - 1]) {
        const requests = readAll(whole, second > cut && second < whole.length ? [cut, second] : [cut]);
        assert.equal(requests.length, 1, `cut at ${cut}/${second}`);
        assert.equal(requests[0]?.body.toString("latin1"), BODY, `cut at ${cut}/${second}`);
      }
    }
  });

  test("requests sent one after another (pipelined) are read one at a time, in order; empty lines between them are skipped", () => {
    const reader = new RequestReader(1024, () => {});
    reader.push(Buffer.from(`${HEAD}${BODY}\r\nGET /anthropic/v1/models HTTP/1.1\r\nhost: proxy\r\n\r\n${CHUNKED_HEAD}${CHUNKED_BODY}GET /gem`));
    assert.deepEqual(
      [reader.next(), reader.next(), reader.next()].map((request) => [request?.method, request?.url, request?.body.toString("latin1")]),
      [
        ["POST", "/anthropic/v1/messages", BODY],
        ["GET", "/anthropic/v1/models", ""],
        ["POST", "/openai/v1/chat/completions", BODY],
      ],
    );
    assert.equal(reader.next(), undefined, "the fourth is not whole");
    assert.equal(reader.begun, true);
    reader.push(Buffer.from("ini HTTP/1.1\r\nhost: proxy\r\n\r\n"));
    assert.equal(reader.next()?.url, "/gemini");
    assert.equal(reader.begun, false);
  });

  test("whether the connection is kept: HTTP/1.1 unless close, HTTP/1.0 only with keep-alive", () => {
    const kept = (head: string) => readAll(`${head}\r\n`)[0]?.keepAlive;
    assert.equal(kept("GET / HTTP/1.1\r\nhost: p\r\n"), true);
    assert.equal(kept("GET / HTTP/1.1\r\nhost: p\r\nConnection: Close\r\n"), false);
    assert.equal(kept("GET / HTTP/1.1\r\nhost: p\r\nconnection: te, close\r\n"), false);
    assert.equal(kept("GET / HTTP/1.0\r\n"), false);
    assert.equal(kept("GET / HTTP/1.0\r\nconnection: keep-alive\r\n"), true);
  });

  test("expect: 100-continue is answered once the head is read, for an HTTP/1.1 request with a body only", () => {
    const continued = (bytes: string) => {
      let calls = 0;
      readAll(bytes, [], new RequestReader(1024, () => (calls += 1)));
      return calls;
    };
    assert.equal(continued(`POST / HTTP/1.1\r\nhost: p\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\nab`), 1);
    assert.equal(continued(`POST / HTTP/1.1\r\nhost: p\r\nExpect: 100-Continue\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`), 1);
    assert.equal(continued(`POST / HTTP/1.0\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\nab`), 0);
    assert.equal(continued(`GET / HTTP/1.1\r\nhost: p\r\nexpect: 100-continue\r\n\r\n`), 0);
  });

  test("what is not a request the proxy can read is refused with the status that says why", () => {
    const cases: Array<[string, number, RegExp]> = [
      ["SSH-2.0-OpenSSH\r\n\r\n", 400, /HTTP\/1\.x request line/],
      ["GET /  HTTP/1.1\r\nhost: p\r\n\r\n", 400, /HTTP\/1\.x request line/],
      ["PRI * HTTP/2.0\r\n\r\n", 505, /HTTP\/2\.0 is not spoken/],
      ["G(T / HTTP/1.1\r\nhost: p\r\n\r\n", 400, /method is not a token/],
      ["GET http://example.com/ HTTP/1.1\r\nhost: p\r\n\r\n", 400, /target is not a path/],
      ["GET /a\x01b HTTP/1.1\r\nhost: p\r\n\r\n", 400, /target is not a path/],
      ["GET / HTTP/1.1\r\n\r\n", 400, /no host header/],
      ["GET / HTTP/1.1\r\nhost: p\r\nno colon\r\n\r\n", 400, /not "name: value"/],
      ["GET / HTTP/1.1\r\nhost: p\r\nx-a: 1\r\n folded\r\n\r\n", 400, /not "name: value"/],
      ["GET / HTTP/1.1\r\nhost: p\r\nbad name: x\r\n\r\n", 400, /not a token/],
      ["GET / HTTP/1.1\r\nhost: p\r\nx-bell: a\x07b\r\n\r\n", 400, /control character/],
      ["POST / HTTP/1.1\r\nhost: p\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n", 400, /not one length/],
      ["POST / HTTP/1.1\r\nhost: p\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n", 400, /both a content-length and a transfer-encoding/],
      ["POST / HTTP/1.1\r\nhost: p\r\ntransfer-encoding: gzip\r\n\r\n", 400, /does not end in chunked/],
      ["POST / HTTP/1.1\r\nhost: p\r\ntransfer-encoding: gzip, chunked\r\n\r\n", 501, /not chunked alone/],
      ["POST / HTTP/1.1\r\nhost: p\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n", 400, /not a size/],
      ["POST / HTTP/1.1\r\nhost: p\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabcd\r\n", 400, /does not end where its size says/],
      ["POST / HTTP/1.1\r\nhost: p\r\nexpect: something-else\r\ncontent-length: 1\r\n\r\nx", 417, /expects what the proxy does not give/],
      [`GET / HTTP/1.1\r\nhost: p\r\nx-long: ${"a".repeat(17 * 1024)}\r\n\r\n`, 431, /head is longer than 16384 bytes/],
      [`GET / HTTP/1.1\r\nhost: p\r\nx-long: ${"a".repeat(17 * 1024)}`, 431, /head is longer than 16384 bytes/],
    ];
    for (const [bytes, status, message] of cases) {
      const error = refused(bytes);
      assert.equal(error.status, status, JSON.stringify(bytes.slice(0, 60)));
      assert.match(error.message, message);
    }
  });

  test("a body larger than the limit is refused with 413, by its length at once, or as its chunks come", () => {
    assert.equal(refused("POST / HTTP/1.1\r\nhost: p\r\ncontent-length: 11\r\n\r\n", 10).status, 413);
    const chunks = "POST / HTTP/1.1\r\nhost: p\r\ntransfer-encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n";
    assert.match(refused(chunks, 10).message, /body is larger than 10 bytes/);
    assert.equal(readAll(chunks, [], new RequestReader(12, () => {}))[0]?.body.toString(), "abcdefghijkl");
  });
});
