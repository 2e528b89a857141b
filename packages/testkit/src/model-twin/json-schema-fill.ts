/** The parts of a JSON Schema (or Gemini's OpenAPI-style schema) the twin reads. */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** The schema's type, lower-cased (Gemini writes `STRING`), the first non-null one of a list or union. */
export function schemaType(schema: JsonSchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const found = types.map((type) => type.toLowerCase()).find((type) => type !== "null");
  if (found !== undefined) return found;
  if (schema.properties !== undefined) return "object";
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(schemaType).find((type) => type !== undefined && type !== "null");
}

/** Text for a required string nobody asked the twin for (a `description` of a shell command, say). */
const FILLER_TEXT = "model twin step";

/**
 * A plausible value for `schema`: its const, default or first enum value, else a value of its
 * type. Objects get their required properties only, so optional knobs keep the tool's defaults.
 */
export function sampleValue(schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return FILLER_TEXT;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  switch (schemaType(schema)) {
    case "object":
      return fillRequired(schema, {});
    case "array":
      return [];
    case "boolean":
      return false;
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "null":
      return null;
    default:
      return FILLER_TEXT;
  }
}

/** `values` plus a sample for each required property of `schema` that `values` lacks. */
export function fillRequired(schema: JsonSchema | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const key of schema?.required ?? []) {
    if (!(key in values)) filled[key] = sampleValue(schema?.properties?.[key]);
  }
  return { ...filled, ...values };
}

/**
 * The first property of `schema` named like one of `names` (exactly, in that order), else the
 * first whose name matches `fallback`.
 */
export function findProperty(schema: JsonSchema | undefined, names: readonly string[], fallback: RegExp): string | undefined {
  const keys = Object.keys(schema?.properties ?? {});
  return names.find((name) => keys.includes(name)) ?? keys.find((key) => fallback.test(key));
}
