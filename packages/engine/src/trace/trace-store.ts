import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Redactor } from "../redaction/redactor.ts";

/** Default cap on one tool call's stored output: a runaway `cat` must not fill the disk. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;
/** Folder of the trace store, inside the run's directory. */
export const OUTPUTS_DIR = "outputs";
/** Longest file name made from a call id (before the suffix and `.txt`); file systems allow 255 bytes. */
const MAX_NAME_CHARS = 100;

export type TracedOutput = {
  /** Relative to the run's directory, e.g. `outputs/c_1.txt`. */
  file: string;
  /** Characters in the written file, marker included. */
  writtenChars: number;
  cut: boolean;
};

/**
 * The complete outputs of a run's tool calls, one file per call in `outputs/`, redacted and
 * capped with a marker line where the cut is. Writes are synchronous: the event that names a
 * file is appended right after, and must never name a file that is not there yet.
 */
export class TraceStore {
  readonly #runDir: string;
  readonly #redactor: Redactor;
  readonly #maxChars: number;
  /** File names taken in this run, by call id: two ids that sanitize alike get distinct files. */
  readonly #names = new Map<string, string>();
  readonly #taken = new Set<string>();

  constructor(options: { runDir: string; redactor: Redactor; maxChars?: number }) {
    this.#runDir = options.runDir;
    this.#redactor = options.redactor;
    this.#maxChars = options.maxChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  }

  /** Stores a call's output. Returns undefined when it could not be written (the run goes on). */
  write(call: string, output: string): TracedOutput | undefined {
    const redacted = this.#redactor.redactText(output);
    const cut = redacted.length > this.#maxChars;
    const text = cut ? `${redacted.slice(0, this.#maxChars)}\n${cutMarker(this.#maxChars, redacted.length)}\n` : redacted;
    const dir = join(this.#runDir, OUTPUTS_DIR);
    try {
      mkdirSync(dir, { recursive: true });
      const name = this.#fileName(call);
      writeFileSync(join(dir, name), text);
      return { file: `${OUTPUTS_DIR}/${name}`, writtenChars: text.length, cut };
    } catch {
      return undefined;
    }
  }

  #fileName(call: string): string {
    const known = this.#names.get(call);
    if (known !== undefined) return known;
    const base = safeFileStem(call);
    let name = `${base}.txt`;
    for (let n = 2; this.#taken.has(name); n += 1) name = `${base}-${n}.txt`;
    this.#taken.add(name);
    this.#names.set(call, name);
    return name;
  }
}

/** The line that marks where a stored output was cut. */
export function cutMarker(keptChars: number, totalChars: number): string {
  return `[baton: output cut at ${keptChars} of ${totalChars} characters; raise [trace] max_output_chars to keep more]`;
}

/**
 * A call id as a file name: letters, digits, `.`, `_` and `-` kept, anything else `_`; never
 * hidden, never empty, never `.` or `..`. Two ids can map to the same stem: the store adds a
 * suffix then.
 */
export function safeFileStem(call: string): string {
  const stem = call.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_").slice(0, MAX_NAME_CHARS);
  return stem === "" ? "call" : stem;
}
