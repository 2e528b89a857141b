const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/**
 * Reads a duration as people write one: `90s`, `30m`, `1h30m`, `250ms`; a bare number is
 * seconds. Returns milliseconds, or undefined for anything else.
 *
 * @example parseDuration("1h30m") // => 5_400_000
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1_000);
  if (!WHOLE.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Math.round(total);
}

/** Milliseconds as a duration the way `parseDuration` reads them back: `1h30m`, `45s`, `250ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  let rest = Math.round(ms / 1_000);
  const hours = Math.floor(rest / 3_600);
  rest -= hours * 3_600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  return `${hours ? `${hours}h` : ""}${minutes ? `${minutes}m` : ""}${seconds || (!hours && !minutes) ? `${seconds}s` : ""}`;
}
