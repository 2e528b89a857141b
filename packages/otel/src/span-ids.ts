import { createHash } from "node:crypto";

/**
 * A run's trace id: 16 bytes of SHA-256 of its run id. Exporting a run again (after a crash,
 * from another process) sends the same trace, so a backend sees one trace, not two.
 */
export function traceIdOf(runId: string): string {
  return nonZero(createHash("sha256").update(`baton-trace:${runId}`).digest("hex").slice(0, 32));
}

/** A span's id: 8 bytes of SHA-256 of its run id and the seq of the event that started it. */
export function spanIdOf(runId: string, startSeq: number): string {
  return nonZero(createHash("sha256").update(`baton-span:${runId}:${startSeq}`).digest("hex").slice(0, 16));
}

/** All-zero ids are invalid in OTLP; one hash in 2^64 would give one. */
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
