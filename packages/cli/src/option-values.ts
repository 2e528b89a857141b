// How every option value of the command line is read: each option in program.ts names one of
// these, so that a value is checked as commander reads it, before any command runs, and the
// same kind of value is refused with the same words everywhere. The bounds are config.toml's
// (engine/config/bounds.ts): what one accepts, the other does.
import { MAX_COUNT, MAX_TIMEOUT_MS } from "@baton/engine/bounds";
import { formatDuration, parseDuration } from "@baton/engine/duration";
import { BatonError } from "@baton/engine/errors";

/** Reads one option value; throws a `usage` BatonError naming the option, the value and the fix. */
export type ValueReader<T> = (text: string) => T;

const WHOLE = /^\d+$/;
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A whole number from `min` to `max` (decimal digits only: no sign, exponent or hex, which
 * `Number()` would take), like `--max-tool-calls 200`.
 */
export function wholeNumber(flag: string, options: { min: number; max?: number; example: number; hint?: string }): ValueReader<number> {
  const max = options.max ?? MAX_COUNT;
  return (text) => {
    const value = WHOLE.test(text) ? Number(text) : Number.NaN;
    if (!(Number.isSafeInteger(value) && value >= options.min && value <= max)) {
      throw usage(`${flag}: "${text}" is not a whole number from ${options.min} to ${max}`, options.hint ?? `pass ${flag} with a number, like ${flag} ${options.example}`);
    }
    return value;
  };
}

/** A number above zero, decimals allowed, like `--max-cost 2.5`. */
export function positiveNumber(flag: string, options: { example: string }): ValueReader<number> {
  return (text) => {
    const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
    if (!(Number.isFinite(value) && value > 0)) throw usage(`${flag}: "${text}" is not a positive number`, `pass ${flag} with a number, like ${flag} ${options.example}`);
    return value;
  };
}

/**
 * A duration in milliseconds, like `--timeout 30m`: above zero, and no longer than Baton's
 * timers can wait (a longer one would fire at once). `name` is the option or the variable.
 */
export function duration(name: string, options: { maxMs?: number } = {}): ValueReader<number> {
  const maxMs = options.maxMs ?? MAX_TIMEOUT_MS;
  return (text) => {
    const ms = parseDuration(text);
    if (ms === undefined || !Number.isFinite(ms)) throw usage(`${name}: "${text}" is not a duration`, 'write it like "90s", "30m" or "1h30m" (a bare number is seconds)');
    if (ms <= 0) throw usage(`${name}: "${text}" is no time at all`, 'give a duration above zero, like "30m"');
    if (ms > maxMs) throw usage(`${name}: "${text}" is longer than ${formatDuration(maxMs)}, the longest Baton's timers can wait`, `give a shorter one, like "${formatDuration(Math.min(maxMs, 24 * 3_600_000))}"`);
    return ms;
  };
}

/** An http or https URL, like `--endpoint http://localhost:4318/v1/traces`. */
export function httpUrl(flag: string): ValueReader<string> {
  return (text) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) throw usage(`${flag}: "${text}" is not an http or https URL`, `pass ${flag} with a URL, like ${flag} http://localhost:4318/v1/traces`);
    return text;
  };
}

/** One of a fixed set of words, like `--status failed`. `what` names the kind: "a run status". */
export function oneOf<const T extends string>(flag: string, what: string, values: readonly T[]): ValueReader<T> {
  return (text) => {
    if (!(values as readonly string[]).includes(text)) throw usage(`${flag}: "${text}" is not ${what}`, `pass one of ${values.join(", ")}`);
    return text as T;
  };
}

/** Any text but an empty one, like `--model sonnet`. `what` says what it names: "a model name". */
export function nonEmpty(flag: string, what: string): ValueReader<string> {
  return (text) => {
    if (text.trim() === "") throw usage(`${flag} is empty`, `give it ${what}, or leave ${flag} out`);
    return text;
  };
}

/** A repeatable option: each value read by `read`, in the order given. */
export function each<T>(read: ValueReader<T>): (text: string, previous: T[]) => T[] {
  return (text, previous) => [...previous, read(text)];
}

function usage(message: string, hint: string): BatonError {
  return new BatonError("usage", message, { hint });
}
