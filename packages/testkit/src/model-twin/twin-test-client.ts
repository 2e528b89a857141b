// Test support: a plain fetch client for the model twin, reading server-sent events as a
// provider SDK would, without any SDK.

export type SseEvent = { event: string | undefined; data: unknown };

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Parses an SSE body: one event per blank-line-separated frame, `data` parsed as JSON when it is JSON. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const lines = frame.split(/\r?\n/);
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length);
      const data = lines
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice("data: ".length))
        .join("\n");
      try {
        return { event, data: JSON.parse(data) as unknown };
      } catch {
        return { event, data };
      }
    });
}

export async function postSse(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SseEvent[]> {
  const response = await post(url, body, headers);
  if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) throw new Error(`not an event stream: ${response.headers.get("content-type")}`);
  return parseSse(await response.text());
}

/** The value at `keys` below `value` (object keys or array indexes), undefined where the path breaks. */
export function at(value: unknown, ...keys: Array<string | number>): unknown {
  let node = value;
  for (const key of keys) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** The `data` of each event, with the ones named `event` first filtered when given. */
export function dataOf(events: SseEvent[], event?: string): unknown[] {
  return events.filter((e) => event === undefined || e.event === event).map((e) => e.data);
}
