/** One server-sent event: its `id` (absent on ephemeral events), its name (`message` unless named) and its data. */
export type SseFrame = { id?: string; event: string; data: string };

/** A frame's parts: `retry` is handed on apart, comments (`: ping`) are dropped. */
export type SseItem = { kind: "frame"; frame: SseFrame } | { kind: "retry"; ms: number };

/**
 * The frames of a `text/event-stream` body, as the HTML standard parses them (lines end with
 * LF, CR or CRLF; a blank line ends a frame; a frame with no data line is not dispatched).
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone CR at the end may be the first half of a CRLF: wait for more.
        if (end === -1 || (buffer[end] === "\r" && end === buffer.length - 1 && !done)) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          if (data.length > 0) yield { kind: "frame", frame: id === undefined ? { event: event || "message", data: data.join("\n") } : { id, event: event || "message", data: data.join("\n") } };
          data = [];
          event = "";
          id = undefined;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? "" : line.slice(colon + 1);
        const text = raw.startsWith(" ") ? raw.slice(1) : raw;
        if (field === "data") data.push(text);
        else if (field === "event") event = text;
        else if (field === "id" && !text.includes("\0")) id = text;
        else if (field === "retry" && /^\d+$/.test(text)) yield { kind: "retry", ms: Number(text) };
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
