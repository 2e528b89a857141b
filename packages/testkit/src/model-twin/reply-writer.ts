import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Fault } from "./scenario.ts";

/** Headers of every streamed reply (all four APIs use server-sent events). */
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" };

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/**
 * Writes a streamed reply, frame by frame. A `slow` fault waits before each frame; a `stall`
 * fault sends its first frames and then nothing more, holding the socket until the client gives
 * up or the twin closes. Stalls never send the last frame, so the reply can never look complete.
 */
export async function writeStream(response: ServerResponse, frames: readonly string[], fault: Fault | undefined): Promise<void> {
  response.writeHead(200, SSE_HEADERS);
  response.flushHeaders();
  const stallAt = fault?.kind === "stall" ? Math.min(fault.afterChunks, frames.length - 1) : undefined;
  for (const [index, frame] of frames.entries()) {
    if (index === stallAt) return;
    if (fault?.kind === "slow") await sleep(fault.delayMs);
    if (response.destroyed) return;
    response.write(frame);
  }
  response.end();
}

/** Writes a non-streamed reply; a stall sends the headers and no body. */
export async function writeWhole(response: ServerResponse, body: unknown, fault: Fault | undefined): Promise<void> {
  if (fault?.kind === "slow") await sleep(fault.delayMs);
  if (response.destroyed) return;
  if (fault?.kind === "stall") {
    response.writeHead(200, { "content-type": "application/json" });
    response.flushHeaders();
    return;
  }
  sendJson(response, 200, body);
}

/** Seconds as providers send them: `retry-after` (whole seconds) and `retry-after-ms`. */
export function retryAfterHeaders(seconds: number | undefined): Record<string, string> {
  if (seconds === undefined) return {};
  return { "retry-after": String(Math.ceil(seconds)), "retry-after-ms": String(Math.round(seconds * 1000)) };
}
