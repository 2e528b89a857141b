// The few top-level fields of a model request's JSON body that the proxy reads, found without
// parsing the rest: a long conversation's messages are skipped over, not decoded.

/** A top-level field: its parsed value and where its value's text lies in the body. */
export type BodyField = { value: unknown; start: number; end: number };

/** The fields the proxy reads from a model request (model, streaming, output caps, Gemini's config, a chat's stream options). */
export const REQUEST_FIELDS: ReadonlySet<string> = new Set(["model", "stream", "max_tokens", "max_completion_tokens", "max_output_tokens", "generationConfig", "stream_options"]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The fields of `names` in a JSON object's text, each value parsed (the last one when a name is
 * repeated, as `JSON.parse` keeps), the others skipped: strings are jumped over with a native
 * search, nested values by counting brackets. Undefined when the text is not an object. The
 * skipped values are not checked as strictly as `JSON.parse` would.
 *
 * @example topLevelFields(Buffer.from('{"model":"m","messages":[…]}'), new Set(["model"])) // Map { "model" → { value: "m", … } }
 */
export function topLevelFields(body: Buffer, names: ReadonlySet<string>): Map<string, BodyField> | undefined {
  const fields = new Map<string, BodyField>();
  let i = spaces(body, 0);
  if (body[i] !== OPEN_OBJECT) return undefined;
  i = spaces(body, i + 1);
  if (body[i] === CLOSE_OBJECT) return spaces(body, i + 1) === body.length ? fields : undefined;
  for (;;) {
    if (body[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(body, i);
    if (keyEnd === -1) return undefined;
    const name = keyOf(body, i, keyEnd);
    if (name === undefined) return undefined;
    i = spaces(body, keyEnd);
    if (body[i] !== COLON) return undefined;
    const start = spaces(body, i + 1);
    const end = valueEnd(body, start);
    if (end === -1) return undefined;
    if (names.has(name)) {
      const value = parsed(body, start, end);
      if (value === INVALID) return undefined;
      fields.set(name, { value, start, end });
    }
    i = spaces(body, end);
    if (body[i] === COMMA) i = spaces(body, i + 1);
    else if (body[i] === CLOSE_OBJECT) return spaces(body, i + 1) === body.length ? fields : undefined;
    else return undefined;
  }
}

/**
 * The body with one top-level field set to `value`'s JSON: its value's text replaced where the
 * field is, or the field added first in the object. The rest of the bytes are the agent's own.
 */
export function withField(body: Buffer, fields: ReadonlyMap<string, BodyField>, name: string, value: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(value));
  const field = fields.get(name);
  if (field !== undefined) return Buffer.concat([body.subarray(0, field.start), json, body.subarray(field.end)]);
  const open = body.indexOf(OPEN_OBJECT) + 1;
  const empty = fields.size === 0 && body[spaces(body, open)] === CLOSE_OBJECT;
  return Buffer.concat([body.subarray(0, open), Buffer.from(`${JSON.stringify(name)}:`), json, Buffer.from(empty ? "" : ","), body.subarray(open)]);
}

const INVALID = Symbol("invalid");

function parsed(body: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(body.toString("utf8", start, end));
  } catch {
    return INVALID;
  }
}

/** A key's text: read as it is unless it holds an escape. */
function keyOf(body: Buffer, start: number, end: number): string | undefined {
  for (let i = start + 1; i < end - 1; i++) {
    if (body[i] !== BACKSLASH) continue;
    const value = parsed(body, start, end);
    return typeof value === "string" ? value : undefined;
  }
  return body.toString("utf8", start + 1, end - 1);
}

function spaces(body: Buffer, from: number): number {
  let i = from;
  while (i < body.length) {
    const c = body[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** The index just past the string opening at `start`, or -1 when it is never closed. */
function stringEnd(body: Buffer, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value starting at `start`, or -1 when it is cut or unbalanced. */
function valueEnd(body: Buffer, start: number): number {
  const first = body[start];
  if (first === undefined) return -1;
  if (first === QUOTE) return stringEnd(body, start);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    const closers: number[] = [];
    let i = start;
    while (i < body.length) {
      const c = body[i] as number;
      if (c === QUOTE) {
        i = stringEnd(body, i);
        if (i === -1) return -1;
        continue;
      }
      if (c === OPEN_OBJECT) closers.push(CLOSE_OBJECT);
      else if (c === OPEN_ARRAY) closers.push(CLOSE_ARRAY);
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (closers.pop() !== c) return -1;
        if (closers.length === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // A number or a literal: up to the next separator.
  let i = start;
  while (i < body.length) {
    const c = body[i];
    if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
    i++;
  }
  return i;
}
