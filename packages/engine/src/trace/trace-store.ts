import { closeSync, mkdirSync, open, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Redactor } from "../redaction/redactor.ts";

/** Default cap on one tool call's stored output: a runaway `cat` must not fill the disk. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;
/** Folder of the trace store, inside the run's directory. */
export const OUTPUTS_DIR = "outputs";
/** Longest file name made from a call id (before the suffix and `.txt`); file systems allow 255 bytes. */
const MAX_NAME_CHARS = 100;

/**
 * A name claimed for a call before its output is known: its file is being created (`pending`)
 * or is there, empty, open for the output (`open`).
 */
type Reservation = { name: string; fd: number | undefined; state: "pending" | "open" | "dropped" };

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
 *
 * One store serves one agent session (or one workflow's command stages), but a run's folder
 * outlives it: another session of the run, a resumed run or another branch may use the same
 * call ids (`call_1` in every stage). A name already in the folder is never taken again, so no
 * output replaces another; the same call id written twice in one store keeps its own file.
 *
 * Creating a file is the costly part of a write (on some file systems a millisecond, against
 * microseconds for writing a few hundred bytes into it), so a call's file can be claimed when
 * the call starts ({@link reserve}): it is created off this thread while the call runs, and
 * the output is written into it, synchronously as before, when the call ends. A call whose
 * file is not there yet by then is written the way an unreserved one is.
 */
export class TraceStore {
  readonly #runDir: string;
  readonly #redactor: Redactor;
  readonly #maxChars: number;
  /** File names taken in this run, by call id: two ids that sanitize alike get distinct files. */
  readonly #names = new Map<string, string>();
  readonly #taken = new Set<string>();
  /** Whether `outputs/` was made: made once, again only if a write finds it gone. */
  #dirMade = false;
  /** Files claimed for calls that have started and not been written yet, by call id. */
  readonly #reserved = new Map<string, Reservation>();

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
      // A call written again keeps its own file; a new one goes into the file claimed for it
      // when it started, or claims a name by creating it.
      let name = this.#names.get(call);
      if (name !== undefined) this.#writeFile(dir, name, text, "w");
      else {
        name = this.#writeReserved(call, text) ?? this.#claim(dir, call, text);
        this.#names.set(call, name);
      }
      return { file: `${OUTPUTS_DIR}/${name}`, writtenChars: text.length, cut };
    } catch {
      return undefined;
    }
  }

  /**
   * Claims the file of a call that has just started, for its output to be written into when it
   * ends: its name is taken now, its file is created (exclusively, as {@link write} does) off
   * this thread. Does nothing for a call that has a file or a claim already, or when the
   * folder cannot be made (the write at the end tries again and reports).
   */
  reserve(call: string): void {
    if (this.#names.has(call) || this.#reserved.has(call)) return;
    const dir = join(this.#runDir, OUTPUTS_DIR);
    try {
      if (!this.#dirMade) {
        mkdirSync(dir, { recursive: true });
        this.#dirMade = true;
      }
    } catch {
      return;
    }
    const name = this.#freeName(safeFileStem(call));
    const reservation: Reservation = { name, fd: undefined, state: "pending" };
    this.#taken.add(name);
    this.#reserved.set(call, reservation);
    open(join(dir, name), "wx", (error, fd) => {
      if (reservation.state === "dropped") {
        // Given up while it was being made (written another way, or not needed): no file left behind.
        if (!error) {
          closeQuietly(fd);
          removeQuietly(join(dir, name));
        }
        return;
      }
      if (error) {
        // Taken by another store of the run (or the folder went away): the write at the end claims another.
        reservation.state = "dropped";
        this.#reserved.delete(call);
        return;
      }
      reservation.fd = fd;
      reservation.state = "open";
    });
  }

  /**
   * Gives up a call's claim when it will not be written (the call ended without output, or
   * never ended): its empty file is removed.
   */
  release(call: string): void {
    const reservation = this.#reserved.get(call);
    if (reservation === undefined) return;
    this.#reserved.delete(call);
    const was = reservation.state;
    reservation.state = "dropped";
    if (was === "open" && reservation.fd !== undefined) {
      closeQuietly(reservation.fd);
      if (removeQuietly(join(this.#runDir, OUTPUTS_DIR, reservation.name))) this.#taken.delete(reservation.name);
    }
  }

  /** Writes into the call's claimed file if it is there; its name then, else undefined. */
  #writeReserved(call: string, text: string): string | undefined {
    const reservation = this.#reserved.get(call);
    if (reservation === undefined) return undefined;
    this.#reserved.delete(call);
    if (reservation.state !== "open" || reservation.fd === undefined) {
      // Still being created: written under a name of its own now, and the claim given up.
      reservation.state = "dropped";
      return undefined;
    }
    reservation.state = "dropped";
    try {
      writeFileSync(reservation.fd, text);
    } finally {
      closeSync(reservation.fd);
    }
    return reservation.name;
  }

  /** The first name of `base` this store has not taken (another store may have it: creating it tells). */
  #freeName(base: string): string {
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? `${base}.txt` : `${base}-${n}.txt`;
      if (!this.#taken.has(name)) return name;
    }
  }

  /**
   * A new call's file: the first free name of its stem, taken by creating it (`wx`), so a name
   * another store of the run already wrote, in this process or another, is never taken again.
   */
  #claim(dir: string, call: string, text: string): string {
    const base = safeFileStem(call);
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? `${base}.txt` : `${base}-${n}.txt`;
      if (this.#taken.has(name)) continue;
      try {
        this.#writeFile(dir, name, text, "wx");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
        throw error;
      }
      this.#taken.add(name);
      this.#names.set(call, name);
      return name;
    }
  }

  #writeFile(dir: string, name: string, text: string, flag: "w" | "wx"): void {
    if (!this.#dirMade) {
      mkdirSync(dir, { recursive: true });
      this.#dirMade = true;
    }
    try {
      writeFileSync(join(dir, name), text, { flag });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // The folder went away during the run: made again, and the write tried once more.
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), text, { flag });
    }
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or the disk failed: nothing is written through it any more.
  }
}

/** Removes an empty file claimed and not needed; one that cannot be removed stays (it names no event). */
function removeQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    // Gone already, or a read-only folder.
    return false;
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
