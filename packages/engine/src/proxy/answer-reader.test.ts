import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AnswerError, AnswerReader, type AnswerHead } from "./answer-reader.ts";

type Read = { heads: AnswerHead[]; wire: Buffer[]; data: Buffer[]; ends: number; reader: AnswerReader };

function reader(method = "POST"): Read {
  const read = { heads: [], wire: [], data: [], ends: 0 } as unknown as Read;
  read.reader = new AnswerReader(method, {
    head: (head) => read.heads.push(head),
    body: (wire, data) => {
      read.wire.push(Buffer.from(wire));
      for (const piece of data) read.data.push(Buffer.from(piece));
    },
    end: () => (read.ends += 1),
  });
  return read;
}

/** Pushes `bytes` cut at the given offsets. */
function pushCut(r: Read, bytes: string, cuts: number[]): void {
  const buffer = Buffer.from(bytes, "latin1");
  let from = 0;
  for (const cut of [...cuts, buffer.length]) {
    r.reader.push(buffer.subarray(from, cut));
    from = cut;
  }
}

const text = (buffers: Buffer[]) => Buffer.concat(buffers).toString("latin1");

const HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\nrequest-id: req_1\r\n\r\n";
const FRAME = 'event: a\ndata: {"x":1}\n\n';
const CHUNKS = `${FRAME.length.toString(16)}\r\n${FRAME}\r\n5;name=value\r\nhello\r\nA\r\n0123456789\r\n`;
const LAST = "0\r\nx-trailer: t\r\n\r\n";

describe("AnswerReader", () => {
  test("a chunked answer cut at every byte: its framing handed on as it came up to the last chunk, its data whole, one end", () => {
    const whole = HEAD + CHUNKS + LAST;
    for (let cut = 1; cut < whole.length; cut += 1) {
      for (const second of [cut + 1, cut + 7, whole.length - 1]) {
        const r = reader();
        pushCut(r, whole, second > cut && second < whole.length ? [cut, second] : [cut]);
        assert.equal(r.heads.length, 1, `cut at ${cut}`);
        assert.equal(text(r.wire), CHUNKS, `the wire bytes, cut at ${cut}/${second}`);
        assert.equal(text(r.data), `${FRAME}hello0123456789`, `the data, cut at ${cut}/${second}`);
        assert.equal(r.ends, 1);
        assert.equal(r.reader.done, true);
        assert.equal(r.reader.reusable, true);
      }
    }
  });

  test("the head: status, headers as they came, chunked or not", () => {
    const r = reader();
    r.reader.push(Buffer.from(HEAD));
    assert.deepEqual(r.heads, [{ status: 200, rawHeaders: ["content-type", "text/event-stream", "Transfer-Encoding", "chunked", "request-id", "req_1"], chunked: true }]);
    assert.equal(r.reader.headRead, true);
    assert.equal(r.reader.done, false);
    assert.equal(r.wire.length, 0, "no body bytes yet");
  });

  test("interim 100 and 103 answers are skipped; the final head is the one read", () => {
    const r = reader();
    pushCut(r, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok", [10, 30]);
    assert.deepEqual(r.heads.map((h) => h.status), [201]);
    assert.equal(text(r.data), "ok");
    assert.equal(r.ends, 1);
  });

  test("a body of known length ends at its length; bytes after it leave the connection unusable", () => {
    const r = reader();
    pushCut(r, 'HTTP/1.1 429 Too Many Requests\r\nretry-after: 7\r\ncontent-length: 13\r\n\r\n{"error":"x"}', [40, 70]);
    assert.equal(r.heads[0]?.chunked, false);
    assert.equal(text(r.wire), '{"error":"x"}');
    assert.equal(r.ends, 1);
    assert.equal(r.reader.reusable, true);
    const over = reader();
    over.reader.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA"));
    assert.equal(text(over.data), "ok");
    assert.equal(over.reader.done, true);
    assert.equal(over.reader.reusable, false);
    const zero = reader();
    zero.reader.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"));
    assert.equal(zero.ends, 1);
  });

  test("no body after a HEAD request, a 204 or a 304", () => {
    const head = reader("HEAD");
    head.reader.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n"));
    assert.equal(head.ends, 1);
    assert.equal(head.reader.reusable, true);
    for (const status of [204, 304]) {
      const r = reader();
      r.reader.push(Buffer.from(`HTTP/1.1 ${status} X\r\ntransfer-encoding: chunked\r\n\r\n`));
      assert.equal(r.ends, 1, String(status));
    }
  });

  test("a body with neither length nor chunks runs to the close, and the connection is not kept", () => {
    const r = reader();
    pushCut(r, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{\"a\":", [20]);
    r.reader.push(Buffer.from("1}"));
    assert.equal(r.ends, 0);
    assert.equal(r.reader.closed(), true);
    assert.equal(text(r.data), '{"a":1}');
    assert.equal(r.ends, 1);
    assert.equal(r.reader.reusable, false);
  });

  test("connection: close, and HTTP/1.0 without keep-alive, are not kept", () => {
    const close = reader();
    close.reader.push(Buffer.from("HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 0\r\n\r\n"));
    assert.equal(close.reader.done, true);
    assert.equal(close.reader.reusable, false);
    const old = reader();
    old.reader.push(Buffer.from("HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n"));
    assert.equal(old.reader.reusable, false);
    const kept = reader();
    kept.reader.push(Buffer.from("HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n"));
    assert.equal(kept.reader.reusable, true);
  });

  test("an answer cut mid-body is not complete at the close", () => {
    const r = reader();
    r.reader.push(Buffer.from(`${HEAD}1a\r\nevent: a\n`));
    assert.equal(r.reader.closed(), false);
    assert.equal(r.ends, 0);
    const length = reader();
    length.reader.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc"));
    assert.equal(length.reader.closed(), false);
  });

  test("what is not HTTP/1.1 framing is an AnswerError", () => {
    const cases: Array<[string, RegExp]> = [
      ["SSH-2.0-OpenSSH\r\n\r\n", /HTTP\/1\.x status line/],
      ["HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", /not "name: value"/],
      ["HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n", /not a token/],
      ["HTTP/1.1 200 OK\r\nx-bell: a\u0007b\r\n\r\n", /control character/],
      ["HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n", /not one length/],
      ["HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n", /not one length/],
      [`${HEAD}zz\r\n`, /not a size/],
      [`${HEAD}2\r\nabcd\r\n`, /does not end where its size says/],
      ["HTTP/1.1 101 Switching Protocols\r\n\r\n", /switched protocols/],
    ];
    for (const [answer, message] of cases) {
      assert.throws(() => reader().reader.push(Buffer.from(answer)), (error: unknown) => error instanceof AnswerError && message.test(error.message), answer);
    }
    assert.throws(() => reader().reader.push(Buffer.alloc(70 * 1024, 65)), /head is longer than/);
  });
});
