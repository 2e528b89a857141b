// The upstream of the proxy-latency benchmark in a process of its own, as a provider (or the model
// twin) is one: each streamed Anthropic Messages answer's head and `message_start` at once, then
// CHUNKS text deltas CHUNK_MS apart, then the usage and the end. Prints its base URL as one line,
// then serves until stdin closes.
//   node bench/proxy/upstream-child.ts CHUNKS CHUNK_MS
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const CHUNKS = Number(process.argv[2] ?? "50");
const CHUNK_MS = Number(process.argv[3] ?? "2");

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const upstream = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(frame("message_start", { type: "message_start", message: { model: "claude-sonnet-4-5", usage: { input_tokens: 50, output_tokens: 1 } } }));
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < CHUNKS) {
        res.write(frame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: `word ${sent} ` } }));
        sent += 1;
        return;
      }
      clearInterval(timer);
      res.write(frame("message_delta", { type: "message_delta", usage: { output_tokens: CHUNKS } }));
      res.end(frame("message_stop", { type: "message_stop" }));
    }, CHUNK_MS);
  });
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
process.stdout.write(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  upstream.closeAllConnections();
  upstream.close(() => process.exit(0));
});
