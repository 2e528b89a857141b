// Child process of sse-fanout.bench.ts: the raw floor. A bare node:http server that sends a
// finished run's SSE stream (the bytes Baton's server sends: `retry`, then `id:`/`data:`
// frames) to C clients, from one buffer built in advance, in 64 KiB writes that wait for
// `drain`: what loopback TCP, Node's HTTP and the clients' parsing cost, with no store, no
// follower, no hub. Usage: node raw-serve-child.ts <batonDir> <runId> <clients>
// Prints `port <n>`; once C streams are open, waits for a line on stdin (go) and sends; on
// the next line, prints `cpu <seconds>` (its CPU time since go) and exits.
import http, { type ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import { openStore } from "@baton/engine/store";

const [batonDir, runId, clientsText] = process.argv.slice(2);
if (batonDir === undefined || runId === undefined || clientsText === undefined) throw new Error("usage: raw-serve-child.ts <batonDir> <runId> <clients>");
const clients = Number(clientsText);
const WRITE_BYTES = 64 * 1024;

const store = await openStore(batonDir);
const frames: string[] = ["retry: 2000\n\n"];
for await (const event of store.readRun(runId)) frames.push(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
await store.close();
const bytes = Buffer.from(frames.join(""));

const waiting: ServerResponse[] = [];
const server = http.createServer((_request, response) => {
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  response.flushHeaders();
  waiting.push(response);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`port ${(server.address() as { port: number }).port}\n`));

function send(response: ServerResponse): void {
  let offset = 0;
  const pump = (): void => {
    while (offset < bytes.length) {
      const end = Math.min(bytes.length, offset + WRITE_BYTES);
      const more = response.write(bytes.subarray(offset, end));
      offset = end;
      if (!more) {
        response.once("drain", pump);
        return;
      }
    }
    response.end();
  };
  pump();
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await lines.next();
if (waiting.length !== clients) throw new Error(`${waiting.length} streams open, not ${clients}`);
const before = process.cpuUsage();
for (const response of waiting) send(response);
await lines.next();
const cpu = process.cpuUsage(before);
process.stdout.write(`cpu ${(cpu.user + cpu.system) / 1e6}\n`);
process.exit(0);
