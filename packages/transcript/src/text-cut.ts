import { numberText } from "./number-text.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The first `bytes` bytes of `text`, never splitting a character. */
export function headBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  if (text.length <= bytes / 4 || byteLength(text) <= bytes) return text;
  return decoder.decode(encoder.encode(text.slice(0, bytes)).subarray(0, bytes)).replace(/\ufffd$/, "");
}

/** The last `bytes` bytes of `text`, never splitting a character. */
export function tailBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  if (byteLength(text) <= bytes) return text;
  const encoded = encoder.encode(text.slice(-bytes));
  return decoder.decode(encoded.subarray(Math.max(0, encoded.length - bytes))).replace(/^\ufffd/, "");
}

/** A text cut to at most about `bytes`: whole, its head, or its head and tail around a marker. */
export type Cut = { text: string; leftOutBytes: number };

export function cutText(text: string, bytes: number, shape: "head" | "head_tail"): Cut {
  const total = byteLength(text);
  if (total <= bytes) return { text, leftOutBytes: 0 };
  if (shape === "head") {
    const head = headBytes(text, bytes);
    return { text: head, leftOutBytes: total - byteLength(head) };
  }
  const head = headBytes(text, Math.ceil(bytes / 2));
  const tail = tailBytes(text, Math.floor(bytes / 2));
  const leftOutBytes = total - byteLength(head) - byteLength(tail);
  return { text: `${head}\n[… ${numberText(leftOutBytes)} bytes left out …]\n${tail}`, leftOutBytes };
}
