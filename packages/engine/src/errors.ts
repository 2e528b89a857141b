/**
 * An expected failure with a stable code. The CLI turns it into one line on stderr and an exit
 * code; the server (later) into an HTTP status. `hint` says what to do about it.
 */
export class BatonError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: { hint?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BatonError";
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  /** The one line a user sees: the problem, then what to do. */
  toLine(): string {
    return this.hint ? `${this.message}: ${this.hint}` : this.message;
  }
}

export function isBatonError(error: unknown): error is BatonError {
  return error instanceof BatonError;
}
