import { visibleText } from "@baton/protocol/core";

export { visibleText } from "@baton/protocol/core";

/**
 * Output that is data (a diff, a tool's complete output): exact into a pipe or a file, so that
 * `baton diff 1 | git apply` works; on a terminal, its lines with their controls made visible.
 */
export function onTerminal(stream: { isTTY?: boolean }, text: string): string {
  return stream.isTTY === true ? visibleText(text, { keepNewlines: true }) : text;
}

/** What JSON.stringify leaves raw of what {@link visibleText} escapes: DEL, the C1 controls and the format characters. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value)`, with the characters a terminal acts on that JSON leaves raw (DEL,
 * C1, bidi controls, U+2028/9) written as `\uXXXX` escapes: the same JSON value, byte for
 * byte safe on a terminal. (JSON already escapes the C0 controls, ESC among them.)
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
