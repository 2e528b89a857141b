import { z } from "zod";
import { BatonError } from "../errors.ts";
import { isFillable, type FieldValue, type QuestionField } from "./form-fields.ts";

/** Longest text a person may give one field. */
export const MAX_FIELD_CHARS = 10_000;

const FORMATS: Record<string, z.ZodType> = {
  email: z.email(),
  uri: z.url(),
  date: z.iso.date(),
  "date-time": z.iso.datetime({ offset: true }),
};

/**
 * Checks a person's answer against the question's fields: every key names a field, every value
 * is of its field's type and within its bounds (one of its options, a pattern, a format, a
 * length, a range), and every required field has one. Returns the content as it goes to the
 * agent; throws a one-line BatonError (`invalid_answer`) naming the field and what it takes.
 */
export function checkContent(id: string, fields: readonly QuestionField[], content: unknown): Record<string, FieldValue> {
  if (content === null || typeof content !== "object" || Array.isArray(content)) {
    throw bad(id, "the answer's content must be an object of field values", fields);
  }
  const checked: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(content)) {
    const field = fields.find((candidate) => candidate.name === name);
    if (field === undefined) throw bad(id, `the form has no field "${name}"`, fields);
    checked[name] = checkValue(id, field, value);
  }
  const missing = fields.filter((field) => field.required && !Object.hasOwn(checked, field.name));
  if (missing.length > 0) throw bad(id, `field${missing.length === 1 ? "" : "s"} ${missing.map((field) => `"${field.name}"`).join(", ")} ${missing.length === 1 ? "is" : "are"} required`, fields);
  return checked;
}

/**
 * Reads `name=value` pairs (`baton reply`, the TUI) into content for {@link checkContent}: each
 * value is read as its field's type (a number, `true`/`false`); an `array` field takes one pair
 * per value chosen. A pair for no field, or a value that is not of its field's type, throws.
 */
export function contentFromPairs(id: string, fields: readonly QuestionField[], pairs: readonly string[]): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw bad(id, `"${pair}" is not FIELD=VALUE`, fields);
    const name = pair.slice(0, at);
    const text = pair.slice(at + 1);
    const field = fields.find((candidate) => candidate.name === name);
    if (field === undefined) throw bad(id, `the form has no field "${name}"`, fields);
    if (field.type === "array") {
      const chosen = content[name];
      content[name] = Array.isArray(chosen) ? [...(chosen as string[]), text] : [text];
    } else if (Object.hasOwn(content, name)) {
      throw bad(id, `field "${name}" is given twice`, fields);
    } else {
      content[name] = typedValue(id, field, text, fields);
    }
  }
  return content;
}

/**
 * Splits one typed line (`baton attach`, the TUI) into `FIELD=VALUE` pairs: a pair starts where
 * a field's name and `=` follow a space (or the line's start), so a value may hold spaces.
 *
 * @example pairsFromLine(fields, "db=sqlite notes=keep it small") // ["db=sqlite", "notes=keep it small"]
 */
export function pairsFromLine(fields: readonly QuestionField[], line: string): string[] {
  const names = fields.map((field) => field.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).sort((a, b) => b.length - a.length);
  const text = line.trim();
  if (text === "") return [];
  if (names.length === 0) return [text];
  const starts = [...text.matchAll(new RegExp(`(?:^|\\s)(?:${names.join("|")})=`, "gu"))].map((match) => (match.index ?? 0) + (/^\s/u.test(match[0]) ? 1 : 0));
  // What comes before the first field's name is a pair of its own, which the check then refuses.
  if (starts[0] !== 0) starts.unshift(0);
  return starts.map((start, index) => text.slice(start, starts[index + 1]).trim());
}

/** What a field takes, in a few words: for the hint of an error and for a person's prompt. */
export function describeField(field: QuestionField): string {
  const options = field.options?.map((option) => option.value).join(" | ");
  const takes =
    field.type === "array" ? `several of ${options ?? "nothing"}` : options !== undefined ? `one of ${options}` : field.type === "boolean" ? "true or false" : field.format ?? field.type;
  return `${field.name}${field.required ? "" : "?"} (${takes})`;
}

function typedValue(id: string, field: QuestionField, text: string, fields: readonly QuestionField[]): unknown {
  if (field.type === "number" || field.type === "integer") {
    const value = text.trim() === "" ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) throw bad(id, `field "${field.name}" takes a number, not "${text}"`, fields);
    return value;
  }
  if (field.type === "boolean") {
    const lower = text.trim().toLowerCase();
    if (lower === "true" || lower === "yes") return true;
    if (lower === "false" || lower === "no") return false;
    throw bad(id, `field "${field.name}" takes true or false, not "${text}"`, fields);
  }
  return text;
}

function checkValue(id: string, field: QuestionField, value: unknown): FieldValue {
  const fail = (what: string) => bad(id, `field "${field.name}" ${what}`, [field]);
  if (!isFillable(field)) throw fail(`is of type ${field.type}, which Baton cannot fill; leave it out`);
  switch (field.type) {
    case "string": {
      if (typeof value !== "string") throw fail(`takes text, not ${kindOf(value)}`);
      if (value.length > MAX_FIELD_CHARS) throw fail(`takes at most ${MAX_FIELD_CHARS} characters`);
      if (field.options !== undefined && !field.options.some((option) => option.value === value)) throw fail(`must be one of ${values(field)}, not "${value}"`);
      if (field.min_length !== undefined && value.length < field.min_length) throw fail(`takes at least ${field.min_length} characters`);
      if (field.max_length !== undefined && value.length > field.max_length) throw fail(`takes at most ${field.max_length} characters`);
      if (field.pattern !== undefined && !matches(field.pattern, value)) throw fail(`must match ${field.pattern}`);
      const format = field.format === undefined ? undefined : FORMATS[field.format];
      if (format !== undefined && !format.safeParse(value).success) throw fail(`must be ${article(field.format ?? "")} ${field.format}, not "${value}"`);
      return value;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) throw fail(`takes a number, not ${kindOf(value)}`);
      if (field.type === "integer" && !Number.isInteger(value)) throw fail(`takes a whole number, not ${value}`);
      if (field.min !== undefined && value < field.min) throw fail(`must be at least ${field.min}, not ${value}`);
      if (field.max !== undefined && value > field.max) throw fail(`must be at most ${field.max}, not ${value}`);
      return value;
    }
    case "boolean":
      if (typeof value !== "boolean") throw fail(`takes true or false, not ${kindOf(value)}`);
      return value;
    default: {
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw fail(`takes a list of values, not ${kindOf(value)}`);
      const wrong = value.find((item) => !(field.options ?? []).some((option) => option.value === item));
      if (wrong !== undefined) throw fail(`takes values of ${values(field)}, not "${wrong}"`);
      if (new Set(value).size !== value.length) throw fail("takes each value once");
      if (field.min !== undefined && value.length < field.min) throw fail(`takes at least ${field.min} values`);
      if (field.max !== undefined && value.length > field.max) throw fail(`takes at most ${field.max} values`);
      return value;
    }
  }
}

function bad(id: string, message: string, fields: readonly QuestionField[]): BatonError {
  return new BatonError("invalid_answer", `question ${id}: ${message}`, { hint: `the form takes ${fields.map(describeField).join(", ") || "no fields"}` });
}

function values(field: QuestionField): string {
  return (field.options ?? []).map((option) => option.value).join(", ");
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    // A pattern JavaScript cannot read checks nothing: the agent's own check is the last word.
    return true;
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "string" ? `"${value.slice(0, 40)}"` : typeof value === "object" ? "an object" : String(value);
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}
