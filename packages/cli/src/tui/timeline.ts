import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import type { Envelope } from "@baton/protocol/core";
import { ProgressRenderer } from "../render/progress.ts";

/**
 * A run's timeline as the live view writes it, kept as lines: the terminal UI shows a window of
 * them, so a long run costs only the lines on screen to draw.
 */
export class Timeline {
  readonly lines: string[] = [];
  #partial = "";
  readonly #renderer: ProgressRenderer;

  constructor(run?: number) {
    const sink = new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        this.#take(chunk.toString());
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    this.#renderer = new ProgressRenderer(sink, { run });
  }

  add(event: Envelope): void {
    this.#renderer.render(event);
  }

  /** The `height` lines that end `fromEnd` lines before the last (0: the newest). */
  window(height: number, fromEnd: number): string[] {
    const all = this.#partial === "" ? this.lines : [...this.lines, this.#partial];
    const end = Math.max(0, all.length - fromEnd);
    return all.slice(Math.max(0, end - height), end);
  }

  get length(): number {
    return this.lines.length + (this.#partial === "" ? 0 : 1);
  }

  #take(chunk: string): boolean {
    const parts = stripVTControlCharacters(this.#partial + chunk).split("\n");
    this.#partial = parts.pop() ?? "";
    this.lines.push(...parts);
    return true;
  }
}
