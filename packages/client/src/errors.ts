/** What `baton serve` answers for a request it refuses: `{"error": {"code", "message", "hint"?}}` with a 4xx/5xx status. */
export class BatonApiError extends Error {
  override readonly name = "BatonApiError";
  /** The HTTP status. */
  readonly status: number;
  /** The server's error code (`not_found`, `not_paused`, `invalid_answer`, …). */
  readonly code: string;
  /** How to fix it, when the server says. */
  readonly hint: string | undefined;

  constructor(status: number, code: string, message: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
  }
}

/** The error of a response that is not ok, from its JSON body when it has one. */
export async function apiError(response: Response): Promise<BatonApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; hint?: unknown } };
    const error = body.error;
    if (error !== undefined && typeof error.code === "string" && typeof error.message === "string") {
      return new BatonApiError(response.status, error.code, error.message, typeof error.hint === "string" ? error.hint : undefined);
    }
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return new BatonApiError(response.status, `http_${response.status}`, text.trim() === "" ? response.statusText : text.trim());
}
