import assert from "node:assert/strict";
import { test } from "node:test";
import { tapStreams, type Direction } from "./tap.ts";

/** A sink that keeps what reaches it, and a source the test feeds. */
function wire() {
  const written: string[] = [];
  const output = new WritableStream<Uint8Array>({ write: (chunk) => void written.push(new TextDecoder().decode(chunk)) });
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
  return { written, output, input, feed: (text: string) => feed.enqueue(new TextEncoder().encode(text)) };
}

test("a line sent past the SDK is seen by the tap, then written after what was handed over before it", async () => {
  const { written, output, input } = wire();
  const seen: Array<[Direction, string]> = [];
  const streams = tapStreams(input, output, (direction, line) => void seen.push([direction, line]));
  const sdk = streams.output.getWriter();
  await sdk.write(new TextEncoder().encode('{"id":1,"method":"session/prompt"}\n'));
  streams.send('{"id":7,"result":{"outcome":{"outcome":"cancelled"}}}');
  await sdk.write(new TextEncoder().encode('{"method":"session/cancel"}\n'));
  await sdk.close();
  assert.deepEqual(seen, [
    ["send", '{"id":1,"method":"session/prompt"}'],
    ["send", '{"id":7,"result":{"outcome":{"outcome":"cancelled"}}}'],
    ["send", '{"method":"session/cancel"}'],
  ]);
  assert.equal(written.join(""), '{"id":1,"method":"session/prompt"}\n{"id":7,"result":{"outcome":{"outcome":"cancelled"}}}\n{"method":"session/cancel"}\n');
});

test("a received line the tap keeps for itself never reaches the SDK; the others reach it unchanged, in order", async () => {
  const { input, output, feed } = wire();
  const streams = tapStreams(input, output, (_direction, line) => !line.includes("session/update"));
  feed('{"id":1,"method":"session/request_permission"}\n{"method":"session/upd');
  feed('ate"}\n{"id":2,"result":{}}\n');
  const reader = streams.input.getReader();
  const got: string[] = [];
  while (got.join("").split("\n").length < 3) got.push(new TextDecoder().decode((await reader.read()).value));
  assert.equal(got.join(""), '{"id":1,"method":"session/request_permission"}\n{"id":2,"result":{}}\n');
});
