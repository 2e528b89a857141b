export const REDACTED = "[REDACTED]";

/**
 * Replaces known secret values in text. A secret is also caught in its JSON-escaped form, so
 * that raw protocol lines can be scrubbed before they are parsed.
 */
export class Redactor {
  readonly #needles: string[];
  /** The longest needle: how much text a streaming redactor must hold back. */
  readonly longest: number;

  constructor(secrets: readonly string[]) {
    const needles = new Set<string>();
    for (const secret of secrets) {
      if (secret.length === 0) continue;
      needles.add(secret);
      needles.add(JSON.stringify(secret).slice(1, -1));
    }
    // Longest first, so that a secret containing another is replaced whole.
    this.#needles = [...needles].sort((a, b) => b.length - a.length);
    this.longest = this.#needles[0]?.length ?? 0;
  }

  get active(): boolean {
    return this.#needles.length > 0;
  }

  redactText(text: string): string {
    let result = text;
    for (const needle of this.#needles) {
      if (result.includes(needle)) result = result.split(needle).join(REDACTED);
    }
    return result;
  }

  /** A copy of a JSON-like value with every string (keys included) redacted. */
  redactValue<T>(value: T): T {
    if (!this.active) return value;
    return this.#redactAny(value) as T;
  }

  #redactAny(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.#redactAny(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.redactText(key)] = this.#redactAny(item);
      return out;
    }
    return value;
  }
}

/**
 * Redacts text that arrives in pieces. It holds back the last `longest - 1` characters of what
 * it has seen, so a secret split across two chunks is still recognised once the rest arrives.
 */
export class StreamRedactor {
  readonly #redactor: Redactor;
  #pending = "";

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** Takes a chunk; returns the text that is now safe to pass on (possibly empty). */
  push(chunk: string): string {
    if (!this.#redactor.active) return chunk;
    const text = this.#redactor.redactText(this.#pending + chunk);
    const keep = Math.min(text.length, this.#redactor.longest - 1);
    this.#pending = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** Releases what was held back: call at the end of a message. */
  flush(): string {
    const rest = this.#redactor.redactText(this.#pending);
    this.#pending = "";
    return rest;
  }
}
