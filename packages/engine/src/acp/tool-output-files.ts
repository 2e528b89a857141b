import { PREVIEW_CHARS } from "./tool-output.ts";

/**
 * Where the complete output of each tool call goes (the run's trace store) when the event's
 * preview cannot hold it. A call's file may be claimed as the call starts (`reserve`), and is
 * given up if the call ends with no output or one its preview holds whole.
 */
export type ToolOutputTrace = {
  write(call: string, output: string): { file: string } | undefined;
  reserve?(call: string): void;
  release?(call: string): void;
};

/** What `tool.completed` carries of a call's output besides its length. */
export type PlacedOutput = { preview?: string; output_file?: string };

/**
 * Places each tool call's output: a redacted preview in its event, and the whole in the trace
 * store when the preview cannot hold it. A call is claimed a file while it runs, so that writing
 * it at the end is cheap.
 */
export class ToolOutputFiles {
  readonly #trace: ToolOutputTrace | undefined;
  readonly #redactText: (text: string) => string;
  /** Running calls claimed a file. */
  readonly #claimed = new Set<string>();
  /**
   * Whether the last finished call of each kind had an output longer than its preview (a file
   * in the trace store). A call is claimed a file as it starts only when the last one of its
   * kind needed one, or none of its kind has finished yet: a claim not needed is a file made
   * and removed again, and on ext4 every removed file makes later ones dearer to create.
   */
  readonly #kindNeededFile = new Map<string, boolean>();

  constructor(trace: ToolOutputTrace | undefined, redactText: (text: string) => string) {
    this.#trace = trace;
    this.#redactText = redactText;
  }

  /** The call is still running (it started, or an update said so): claim its file if its kind is likely to need one. */
  running(call: string, kind: string): void {
    if (this.#kindNeededFile.get(kind) === false) return;
    this.#trace?.reserve?.(call);
    this.#claimed.add(call);
  }

  /** The call ended with `output`: its preview, and its file when the preview is not the whole. */
  finished(call: string, kind: string, output: string): PlacedOutput {
    const claimed = this.#claimed.delete(call);
    if (output.length === 0) {
      if (claimed) this.#trace?.release?.(call);
      return {};
    }
    const preview = this.#redactText(output).slice(0, PREVIEW_CHARS);
    // A preview as long as the output is the whole of it: the event holds it, no file repeats it.
    const whole = preview.length === output.length;
    this.#kindNeededFile.set(kind, !whole);
    const traced = whole ? undefined : this.#trace?.write(call, output);
    if (traced !== undefined) return { preview, output_file: traced.file };
    if (whole && claimed) this.#trace?.release?.(call);
    return { preview };
  }

  /** The call will never end (the session did): its claim is given up. */
  abandoned(call: string): void {
    if (this.#claimed.delete(call)) this.#trace?.release?.(call);
  }
}
