import { LineSplitter } from "./core/line-splitter.ts";
import { envelopeSchema, type Envelope } from "./envelope.ts";

export { LineSplitter };

/** One item read from an NDJSON stream: an event, or a line that is not one. */
export type ReadItem =
  | { kind: "event"; event: Envelope; line: number }
  | { kind: "malformed"; line: number; file?: string; error: string; text: string };

/**
 * Parses one NDJSON line into an envelope. Unknown types and unknown fields are kept as they
 * are: only the envelope itself is checked, so a newer writer never breaks an older reader.
 */
export function parseEventLine(text: string, line: number, file?: string): ReadItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return malformed(text, line, file, `not JSON (${(error as Error).message})`);
  }
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "envelope";
    return malformed(text, line, file, `not an event envelope: ${where}: ${issue?.message ?? "invalid"}`);
  }
  return { kind: "event", event: value as Envelope, line };
}

function malformed(text: string, line: number, file: string | undefined, error: string): ReadItem {
  const item: ReadItem = { kind: "malformed", line, error, text: text.length > 200 ? `${text.slice(0, 200)}…` : text };
  if (file !== undefined) item.file = file;
  return item;
}

/**
 * Reads events from a stream of NDJSON bytes. A malformed line is reported with its file and
 * line number, and reading goes on with the next line. Blank lines are skipped.
 *
 * @example
 * for await (const item of readNdjson(createReadStream(path), { file: path })) {
 *   if (item.kind === "event") console.log(item.event.seq, item.event.type);
 *   else console.error(`${item.file}:${item.line}: ${item.error}`);
 * }
 */
export async function* readNdjson(
  source: AsyncIterable<Uint8Array | string>,
  options: { file?: string } = {},
): AsyncGenerator<ReadItem> {
  const splitter = new LineSplitter();
  let line = 0;
  for await (const chunk of source) {
    for (const text of splitter.push(chunk)) {
      line += 1;
      if (text.trim().length > 0) yield parseEventLine(text, line, options.file);
    }
  }
  const rest = splitter.end();
  if (rest !== undefined && rest.trim().length > 0) yield parseEventLine(rest, line + 1, options.file);
}
