/** The keys of `T` whose type admits `undefined`. */
type MaybeUndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `T` with every field that may be `undefined` made optional instead. */
export type DefinedFields<T> = { [K in Exclude<keyof T, MaybeUndefinedKeys<T>>]: T[K] } & {
  [K in MaybeUndefinedKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * Builds an object with optional fields: every field whose value is `undefined` is left out,
 * so an event's `data` or an API answer never carries `"x": undefined` and compares equal to
 * the same object written by hand without it. The one way Baton builds such objects.
 *
 * @example definedFields({ task, model: request.model }) // { task } when model is undefined
 */
export function definedFields<T extends object>(fields: T): DefinedFields<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as DefinedFields<T>;
}
