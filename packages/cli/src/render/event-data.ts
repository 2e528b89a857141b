// Reading event data defensively: the views render logs from any writer, newer and broken ones
// included, and a field of the wrong type must never throw.
export type Data = Record<string, unknown>;

export const text = (value: unknown): string => (typeof value === "string" ? value : "");

export const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

export const record = (value: unknown): Data => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : {});

/** The first line of `value`, cut at `max` characters with an ellipsis. */
export function firstLine(value: string, max: number): string {
  const line = value.split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
