export const REDACTED = "[REDACTED]";
/** Pieces of a secret this short are left alone by {@link Redactor.redactPieces}. */
export const MIN_SECRET_PIECE = 3;

/** The length of the longest end of `a` (at least `min` long, shorter than `a`) that `b` starts with. */
function longestOverlap(a: string, b: string, min: number): number {
  for (let length = Math.min(a.length - 1, b.length); length >= min; length -= 1) {
    if (b.startsWith(a.slice(a.length - length))) return length;
  }
  return 0;
}

/**
 * Replaces known secret values in text. A secret is also caught in its JSON-escaped form, so
 * that raw protocol lines can be scrubbed before they are parsed.
 */
export class Redactor {
  readonly #needles: string[];
  /** The first characters of the needles: where a held-back secret could begin. */
  readonly #starts: Set<string>;
  /** The longest needle: the most text a streaming redactor may have to hold back. */
  readonly longest: number;

  readonly #secrets: readonly string[];

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
    const needles = new Set<string>();
    for (const secret of secrets) {
      if (secret.length === 0) continue;
      needles.add(secret);
      needles.add(JSON.stringify(secret).slice(1, -1));
    }
    // Longest first, so that a secret containing another is replaced whole.
    this.#needles = [...needles].sort((a, b) => b.length - a.length);
    this.longest = this.#needles[0]?.length ?? 0;
    this.#starts = new Set(this.#needles.map((needle) => needle.charAt(0)));
  }

  /** A redactor that also hides `more` (a run token issued after this one was made). */
  with(more: readonly string[]): Redactor {
    return new Redactor([...this.#secrets, ...more]);
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

  /**
   * The length of the longest end of `text` that is the beginning of a secret (and not a whole
   * one): text that may still turn into a secret when more arrives.
   */
  pendingSecretLength(text: string): number {
    for (let start = Math.max(0, text.length - this.longest + 1); start < text.length; start += 1) {
      if (!this.#starts.has(text.charAt(start))) continue;
      const tail = text.slice(start);
      if (this.#needles.some((needle) => needle.length > tail.length && needle.startsWith(tail))) return tail.length;
    }
    return 0;
  }

  /**
   * Like {@link redactText}, and also hides pieces of a secret that a stream split across
   * records: text that lies wholly inside a secret, an end of the text that begins a secret,
   * a start of the text that ends one. Pieces shorter than `minPiece` are left (too likely to
   * be ordinary text). For records kept one by one, such as the ACP transcript's chunks.
   */
  redactPieces(text: string, minPiece = MIN_SECRET_PIECE): string {
    let result = this.redactText(text);
    if (!this.active || result.length < minPiece) return result;
    for (const needle of this.#needles) {
      if (result.length < needle.length && result.length >= minPiece && needle.includes(result)) return REDACTED;
      const head = longestOverlap(needle, result, minPiece);
      if (head > 0) result = REDACTED + result.slice(head);
      const tail = longestOverlap(result, needle, minPiece);
      if (tail > 0) result = result.slice(0, result.length - tail) + REDACTED;
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
 * Redacts text that arrives in pieces. It holds back only an end of the text that could be the
 * beginning of a secret, so a secret split across chunks is still recognised once the rest
 * arrives, while other text passes on at once. (Holding back a fixed `longest - 1` characters
 * hid the live view of every message shorter than an API key until the message ended.)
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
    const keep = this.#redactor.pendingSecretLength(text);
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
