import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as the receiver got it, attributes flattened to plain values. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: OtlpValue[] } };
type OtlpAttribute = { key: string; value: OtlpValue };

/**
 * An OTLP/HTTP trace receiver on loopback, in the test's process. JSON bodies are decoded;
 * protobuf ones are counted. It answers 200 unless told to fail (503) or to hold requests
 * unanswered (a batch in flight when the exporter is killed is then never accepted). Only
 * spans of requests it answered 200 count as accepted.
 */
export class OtlpReceiver implements AsyncDisposable {
  readonly accepted: ReceivedSpan[] = [];
  readonly requests: { contentType: string; bytes: number; answered: number | undefined; headers: Record<string, string | string[] | undefined> }[] = [];
  failing = 0;
  holding = false;
  readonly #held: ServerResponse[] = [];
  readonly #server = createServer((request, response) => void this.#handle(request, response));
  #waiters: (() => void)[] = [];

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1/traces`;
  }

  get base(): string {
    return this.url.replace(/\/v1\/traces$/, "");
  }

  get heldCount(): number {
    return this.#held.length;
  }

  /** Resolves when `condition` holds after some request arrived (checked after each one). */
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const entry = { contentType: request.headers["content-type"] ?? "", bytes: body.length, answered: undefined as number | undefined, headers: request.headers };
    this.requests.push(entry);
    if (this.holding) {
      this.#held.push(response);
    } else if (this.failing > 0) {
      this.failing -= 1;
      entry.answered = 503;
      response.writeHead(503).end();
    } else {
      if (entry.contentType.includes("json")) this.accepted.push(...decodeJson(body.toString("utf8")));
      entry.answered = 200;
      response.writeHead(200, { "content-type": entry.contentType.includes("json") ? "application/json" : "application/x-protobuf" }).end(entry.contentType.includes("json") ? "{}" : "");
    }
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const response of this.#held) response.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function decodeJson(text: string): ReceivedSpan[] {
  const request = JSON.parse(text) as { resourceSpans?: { scopeSpans?: { spans?: (Omit<ReceivedSpan, "attributes" | "events"> & { attributes?: OtlpAttribute[]; events?: { name: string; attributes?: OtlpAttribute[] }[] })[] }[] }[] };
  return (request.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({ ...span, attributes: flatten(span.attributes), events: (span.events ?? []).map((event) => ({ name: event.name, attributes: flatten(event.attributes) })) })),
    ),
  );
}

function flatten(attributes: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
