// Human figures, as the CLI shows them.

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTokens(input: number, output: number): string {
  return `${input.toLocaleString("en")} in / ${output.toLocaleString("en")} out tokens`;
}

export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return "";
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A timestamp as local date and time, or "" when it is missing or not a date. */
export function formatTime(at: string | undefined): string {
  if (at === undefined) return "";
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}
