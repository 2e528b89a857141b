import type { IncomingMessage } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";

/** Largest request body the twin reads: agents send their whole context, a few MB at most. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

const DECODERS: Record<string, (data: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
  zstd: zstdDecompressSync,
};

/** The request body, decompressed and parsed: JSON when it is JSON, else the text, null when empty. */
export async function readRequestBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let data: Buffer = Buffer.concat(chunks);
  const encoding = request.headers["content-encoding"]?.toLowerCase();
  const decode = encoding === undefined ? undefined : DECODERS[encoding];
  if (decode !== undefined) data = decode(data);
  const text = data.toString("utf8");
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
