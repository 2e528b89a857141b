import { BatonError } from "@baton/engine";
import type { RunSummary } from "@baton/engine/store";
import { isFinalType, type Envelope, definedFields } from "@baton/protocol/core";
import { checkSteer, noOutput, type TuiSource } from "./tui-source.ts";
import { sseFrames } from "./sse-frames.ts";

/** How long the UI waits before it connects a dropped run stream again. */
const RECONNECT_MS = 1_000;

/**
 * The terminal UI's source over a `baton serve` URL and its token: the same REST routes and
 * run streams (SSE, resumed from the last seq) the web UI reads. The server checks every action
 * again; its one-line error is what the UI shows.
 */
export function httpSource(baseUrl: string, token: string, who: string): TuiSource {
  const base = baseUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<Response> => {
    const init: RequestInit = { method, headers: body === undefined ? headers : { ...headers, "content-type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${base}${path}`, init).catch((error: unknown) => {
      throw new BatonError("unreachable", `could not reach ${base} (${error instanceof Error ? error.message : String(error)})`, { hint: "is baton serve running there?" });
    });
    if (!response.ok) throw await apiFailure(response);
    return response;
  };
  const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;
  return {
    listRuns: async () => ((await (await call("GET", "/api/runs?limit=1000")).json()) as { runs: RunSummary[] }).runs,
    follow: (runId, signal) => followStream(`${base}${runPath(runId)}/stream`, headers, signal),
    cancel: async (runId) => void (await call("POST", `${runPath(runId)}/cancel`, { reason: "cancelled from baton tui" })),
    answer: async (runId, _state, _questions, callId, action) => void (await call("POST", `${runPath(runId)}/permissions/${encodeURIComponent(callId)}/${action}`, { by: who })),
    reply: async (runId, _state, _asked, reply) => {
      const body = definedFields({ action: reply.action, content: reply.action === "accept" ? (reply.content ?? {}) : undefined, reason: reply.reason, by: who });
      await call("POST", `${runPath(runId)}/questions/${encodeURIComponent(reply.question)}`, body);
    },
    steer: async (runId, state, text) => {
      checkSteer(state, text);
      await call("POST", `${runPath(runId)}/input`, { text, by: who });
    },
    decide: async (runId, _state, decision) => {
      const body: Record<string, unknown> = { by: who };
      if (decision.value !== undefined) body["answer"] = decision.value;
      await call("POST", `${runPath(runId)}/${decision.kind}`, body);
    },
    readOutput: async (runId, row) => {
      if (row.status === "running") throw noOutput(row);
      return (await call("GET", `${runPath(runId)}/outputs/${encodeURIComponent(row.call)}`)).text();
    },
  };
}

/** A run's events from its SSE stream: connected again after a drop or a `resync`, from the last seq seen. */
async function* followStream(url: string, headers: Record<string, string>, signal: AbortSignal): AsyncGenerator<Envelope> {
  let after = 0;
  while (!signal.aborted) {
    const response = await fetch(`${url}?after=${after}`, { headers, signal }).catch(() => undefined);
    if (response?.status === 204) return;
    if (response !== undefined && !response.ok) throw await apiFailure(response);
    if (response?.body != null) {
      try {
        for await (const frame of sseFrames(response.body)) {
          if (frame.event === "resync") break;
          if (frame.event !== "message" || frame.data === "") continue;
          const event = JSON.parse(frame.data) as Envelope;
          if (event.seq !== undefined) {
            if (event.seq <= after) continue;
            after = event.seq;
          }
          yield event;
          if (event.seq !== undefined && isFinalType(event.type)) return;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof SyntaxError) throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

/** The server's one-line error (`{error: {code, message, hint}}`) as a BatonError. */
async function apiFailure(response: Response): Promise<BatonError> {
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; hint?: string } } | undefined;
  const error = body?.error;
  if (error?.message === undefined) return new BatonError("http_error", `the server answered ${response.status} ${response.statusText}`);
  return new BatonError(error.code ?? "http_error", error.message, definedFields({ hint: error.hint }));
}
