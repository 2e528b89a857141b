/**
 * The whole output of a finished tool call when its `tool.completed` event holds it: the call
 * has no `output_file` and its `preview` is as long as the output was (`output_chars`). Baton
 * writes a trace file only for an output its preview cannot hold (ADR 0039). Undefined when the
 * output is in the trace store, or lost (a file that could not be written), or there was none.
 */
export function outputInEvent(data: Readonly<Record<string, unknown>>): string | undefined {
  const preview = data["preview"];
  if (data["output_file"] !== undefined || typeof preview !== "string") return undefined;
  return preview.length === data["output_chars"] ? preview : undefined;
}
