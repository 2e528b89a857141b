/** One server-sent event: its name (`message` by default), its data lines joined, its id if it had one. */
export type SseFrame = { event: string; data: string; id?: string };

/**
 * The frames of a server-sent event stream (the WHATWG format): `event:`, `data:` and `id:`
 * lines up to a blank line; comments (`: ping`) and `retry:` are skipped.
 */
export async function* sseFrames(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffered = "";
  let frame: { event?: string; data: string[]; id?: string } = { data: [] };
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.search(/\r\n|\r|\n/);
    while (end >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + (buffered.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        if (frame.data.length > 0 || frame.event !== undefined) {
          const done: SseFrame = { event: frame.event ?? "message", data: frame.data.join("\n") };
          if (frame.id !== undefined) done.id = frame.id;
          yield done;
        }
        frame = { data: [] };
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") frame.data.push(value);
        else if (field === "event") frame.event = value;
        else if (field === "id") frame.id = value;
      }
      end = buffered.search(/\r\n|\r|\n/);
    }
  }
}
