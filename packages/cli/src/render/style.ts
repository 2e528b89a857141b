import { styleText } from "node:util";

type Format = Parameters<typeof styleText>[0];

/** A colour or weight of the live view's lines. */
export type Tone = Format;

/** Styles text for a stream: plain when it is not a terminal or NO_COLOR is set. */
export function stylerFor(stream: NodeJS.WriteStream): (format: Format, text: string) => string {
  return (format, text) => styleText(format, text, { stream, validateStream: true });
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "-";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

export function formatCost(usd: number | undefined): string {
  return usd === undefined ? "-" : `$${usd.toFixed(usd < 0.1 ? 4 : 2)}`;
}

export function formatTokens(input: number, output: number): string {
  return `${input.toLocaleString("en-US")} in / ${output.toLocaleString("en-US")} out tokens`;
}
