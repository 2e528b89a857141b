// Reading fields of event data defensively: the UI renders logs from any writer, including
// newer ones and broken ones, and a field of the wrong type must never throw.
export type Data = Record<string, unknown>;

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function record(value: unknown): Data {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
