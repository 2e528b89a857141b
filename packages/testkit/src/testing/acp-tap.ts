// Test clients of ACP agents (the fake's and the real ones') read every line an agent writes
// from a tap, before the SDK: the SDK drops (and logs) update kinds it cannot validate and does
// not run notification handlers in order.

/** One JSON-RPC message as the agent wrote it. */
export type RawMessage = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

/**
 * Records each line the agent writes, parsed, and passes on to the SDK every line except
 * `session/update` notifications (tests read updates from the tap alone). A line that is not
 * JSON (a stray log line on stdout) is not ACP and is skipped.
 */
export function tapLines(into: RawMessage[]): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial = "";
  return new TransformStream({
    transform(chunk, controller) {
      const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        let message: RawMessage;
        try {
          message = JSON.parse(line) as RawMessage;
        } catch {
          continue;
        }
        into.push(message);
        if (message.method !== "session/update") controller.enqueue(encoder.encode(`${line}\n`));
      }
    },
  });
}
