/** Splits a byte stream into lines, keeping the unfinished tail until more arrives. */
export class LineSplitter {
  #decoder = new TextDecoder("utf-8");
  #tail = "";

  /** The complete lines in this chunk (together with what was held back before it). */
  push(chunk: Uint8Array | string): string[] {
    const text = this.#tail + (typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true }));
    const lines = text.split("\n");
    this.#tail = lines.pop() ?? "";
    return lines;
  }

  /** What is left once the stream has ended: a last line without a newline, if any. */
  end(): string | undefined {
    const rest = this.#tail + this.#decoder.decode();
    this.#tail = "";
    return rest.length > 0 ? rest : undefined;
  }
}
