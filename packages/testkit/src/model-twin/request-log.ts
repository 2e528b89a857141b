import { appendFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import type { RequestRole } from "./conversation.ts";
import type { Fault, ScenarioName } from "./scenario.ts";
import type { ApiName } from "./wire/wire-api.ts";

/** One request the twin received, as logged (one NDJSON line each). */
export type TwinRequestRecord = {
  /** 1, 2, … in arrival order. */
  seq: number;
  at: string;
  method: string;
  /** Path and query, with a `key=` query parameter redacted. */
  path: string;
  /** Lower-case names; values of credential-like headers are `[REDACTED]`. */
  headers: Record<string, string>;
  /** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
  body: unknown;
  api: ApiName | null;
  /** main / auxiliary for model calls; discovery for model lists and token counts; unknown for a 404. */
  role: RequestRole | "discovery" | "unknown";
  scenario: ScenarioName;
  /** The HTTP status sent, or null when the connection was reset instead. */
  status: number | null;
  /** What the twin answered: text, or the tool call it made. */
  reply?: { kind: "text"; text: string } | { kind: "tool"; name: string; args: Record<string, unknown> };
  fault?: Fault["kind"];
  /**
   * With the twin's `key` set: whether the request carried that key (`expected`), another
   * credential (`other`: a run token that went around Baton's proxy), or none.
   */
  credential?: "expected" | "other" | "none";
};

export const REDACTED = "[REDACTED]";
/** Header names whose values are credentials: never written to a log. */
const SECRET_HEADER = /authorization|api-?key|token|secret|cookie|credential|password/i;

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const redacted: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    redacted[name] = SECRET_HEADER.test(name) ? REDACTED : Array.isArray(value) ? value.join(", ") : value;
  }
  return redacted;
}

/** Gemini clients may put the API key in the query (`?key=…`). */
export function redactPath(path: string): string {
  return path.replace(/([?&](?:key|api_key|apikey)=)[^&]*/gi, `$1${REDACTED}`);
}

export type RequestLog = {
  readonly records: readonly TwinRequestRecord[];
  append(record: TwinRequestRecord): void;
  clear(): void;
};

/**
 * The twin's request log: in memory, and appended to `file` as NDJSON when given. Synchronous
 * appends keep the file in arrival order and complete before the reply goes out, so a client
 * that got its answer can read its request in the file.
 */
export function createRequestLog(file?: string): RequestLog {
  const records: TwinRequestRecord[] = [];
  return {
    records,
    append(record) {
      records.push(record);
      if (file !== undefined) appendFileSync(file, `${JSON.stringify(record)}\n`);
    },
    clear() {
      records.length = 0;
    },
  };
}

/** Every credential a request carries, wherever a provider SDK puts it. */
export function credentialsOf(headers: IncomingHttpHeaders, url: URL): string[] {
  const values = [headers["x-api-key"], headers["x-goog-api-key"], headers["api-key"], headers["authorization"]?.replace(/^Bearer\s+/i, ""), url.searchParams.get("key") ?? undefined];
  return values.filter((value): value is string => typeof value === "string" && value.length > 0);
}
