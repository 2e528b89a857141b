/** The limits on a person's input to a running agent (`[input]` in the config). */
export type InputLimits = {
  /** Longest text one input may have, in characters, after redaction. */
  maxChars: number;
  /** Most inputs that may wait for delivery at once. */
  maxQueued: number;
};

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxChars: 4_000, maxQueued: 10 };
/** The highest values the config may set: an input is a message to an agent, not a file. */
export const INPUT_LIMIT_BOUNDS = { maxChars: 100_000, maxQueued: 1_000 } as const;
