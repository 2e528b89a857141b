import { definedFields } from "@baton/protocol/core";
import { asArray, asNumber, asObject, asString } from "../acp/json-access.ts";

/** A value a person may give a field: ACP's elicitation content values. */
export type FieldValue = string | number | boolean | string[];

/** One value a one-of or several-of field takes. */
export type FieldOption = { value: string; title?: string; description?: string };

/** The field types Baton fills; any other (ACP reserves `_…` for extensions) it cannot. */
export const FILLABLE_TYPES = ["string", "number", "integer", "boolean", "array"] as const;

/** One field of a question's form, as `question.asked.fields` records it. */
export type QuestionField = {
  name: string;
  type: string;
  required: boolean;
  title?: string;
  description?: string;
  options?: FieldOption[];
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  format?: string;
  default?: FieldValue;
};

/** What Baton read of an agent's requested schema: its fields, and why it cannot be filled, if so. */
export type FormFields = { fields: QuestionField[]; unfillable?: string };

/** Most fields a form may have, and longest text of a title or description kept: a form, not a document. */
const MAX_FIELDS = 64;
const MAX_TEXT = 2_000;

/**
 * Reads the `requestedSchema` of an ACP form elicitation into Baton's fields, in the schema's
 * order: a `string` (one of `enum` or titled `oneOf` values when it has them), `number`,
 * `integer`, `boolean`, or `array` (several of `items.enum` or `items.anyOf`). A required field
 * of a type Baton cannot fill makes the form unfillable (the question is declined); an optional
 * one is recorded and left empty.
 */
export function formFields(requestedSchema: unknown): FormFields {
  const schema = asObject(requestedSchema) ?? {};
  const properties = asObject(schema["properties"]) ?? {};
  const required = new Set(asArray(schema["required"]).map(asString).filter((name) => name !== undefined));
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS) return { fields: [], unfillable: `the form has ${names.length} fields, more than the ${MAX_FIELDS} Baton asks a person` };
  const fields = names.map((name) => fieldOf(name, asObject(properties[name]) ?? {}, required.has(name)));
  const missing = [...required].filter((name) => !Object.hasOwn(properties, name));
  if (missing.length > 0) return { fields, unfillable: `the form requires ${missing.join(", ")}, which it does not describe` };
  const unknown = fields.find((field) => field.required && !isFillable(field));
  if (unknown !== undefined) return { fields, unfillable: `field ${unknown.name} is of type ${unknown.type}, which Baton cannot fill` };
  return { fields };
}

/** Whether a person can give the field a value through Baton. */
export function isFillable(field: QuestionField): boolean {
  if (!(FILLABLE_TYPES as readonly string[]).includes(field.type)) return false;
  return field.type !== "array" || (field.options?.length ?? 0) > 0;
}

function fieldOf(name: string, property: Record<string, unknown>, required: boolean): QuestionField {
  const type = asString(property["type"]) ?? "unknown";
  const options = type === "array" ? itemOptions(asObject(property["items"])) : stringOptions(property);
  return definedFields({
    name,
    type,
    required,
    title: text(property["title"]),
    description: text(property["description"]),
    options: options.length > 0 ? options : undefined,
    min: asNumber(type === "array" ? property["minItems"] : property["minimum"]),
    max: asNumber(type === "array" ? property["maxItems"] : property["maximum"]),
    min_length: asNumber(property["minLength"]),
    max_length: asNumber(property["maxLength"]),
    pattern: asString(property["pattern"]),
    format: asString(property["format"]),
    default: defaultOf(property["default"]),
  });
}

function stringOptions(property: Record<string, unknown>): FieldOption[] {
  const titled = asArray(property["oneOf"]).map(optionOf).filter((option) => option !== undefined);
  if (titled.length > 0) return titled;
  return asArray(property["enum"]).map(asString).filter((value) => value !== undefined).map((value) => ({ value }));
}

function itemOptions(items: Record<string, unknown> | undefined): FieldOption[] {
  if (items === undefined) return [];
  const titled = asArray(items["anyOf"]).map(optionOf).filter((option) => option !== undefined);
  if (titled.length > 0) return titled;
  return asArray(items["enum"]).map(asString).filter((value) => value !== undefined).map((value) => ({ value }));
}

function optionOf(entry: unknown): FieldOption | undefined {
  const option = asObject(entry);
  const value = asString(option?.["const"]);
  if (value === undefined) return undefined;
  return definedFields({ value, title: text(option?.["title"]), description: text(option?.["description"]) });
}

function text(value: unknown): string | undefined {
  const string = asString(value);
  return string === undefined || string === "" ? undefined : string.slice(0, MAX_TEXT);
}

function defaultOf(value: unknown): FieldValue | undefined {
  if (typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return value;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  return undefined;
}
