import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { stepNames, stepSchema, stepValueSchemas } from "./step-schema.ts";
import type { Step, StepName } from "./step-schema.ts";

/** The zod schema of a script as written: a list of steps (one turn) or `{turns: [[…], …]}`. */
export const scriptSchema = z.union([
  z.array(stepSchema),
  z.strictObject({ turns: z.array(z.array(stepSchema)) }),
]);

/** A script as written in JSON. */
export type ScriptInput = z.input<typeof scriptSchema>;
/** A validated script, normalized: turn i plays for the i-th `session/prompt`. */
export type Script = { turns: Step[][] };

/**
 * Validates an already-parsed script value.
 *
 * @throws Error with a one-line message naming `source`, the turn and step, and the problem.
 */
export function validateScript(value: unknown, source: string): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return Array.isArray(result.data) ? { turns: [result.data] } : result.data;
  // zod explains a failed union poorly ("invalid input"), so find the offending step ourselves.
  throw new Error(`script ${source}: ${explainInvalidScript(value) ?? formatIssue(result.error.issues[0])}`);
}

/**
 * Parses and validates a script's JSON text: a bad script is an error before anything runs.
 *
 * @example parseScript('[{"say": "hi"}]', "inline") // => { turns: [[{ say: "hi" }]] }
 * @throws Error like `script demo.json: step 3: unknown step "wrte"; known steps: say, think, …`
 */
export function parseScript(text: string, source: string): Script {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where, never what: V8's message quotes the text, and a script path may name any file.
    throw new Error(`script ${source}: not valid JSON (${describeOffset(text, badJsonOffset(text, error as Error))})`, { cause: error });
  }
  return validateScript(value, source);
}

/** Largest script file read: steps are small, and `repeat` makes long scripts short. */
export const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

/** Reads and parses a script file; errors name the file and never quote it. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    // A FIFO or a device (/dev/zero) would block or never end: only a regular file is read.
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a regular file");
    if (info.size > MAX_SCRIPT_BYTES) throw new Error(`${info.size} bytes, more than a script's ${MAX_SCRIPT_BYTES}`);
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`script ${path}: cannot read: ${(error as Error).message}`, { cause: error });
  }
  return parseScript(text, path);
}

/**
 * The offset of the first character that cannot continue a JSON text. V8 states it in most of
 * its messages; for an unexpected token it quotes the text instead, so the offset is found as
 * the end of the longest prefix that is still the beginning of a JSON text.
 */
export function badJsonOffset(text: string, error: Error): number {
  const stated = /at position (\d+)/.exec(error.message);
  if (stated) return Number(stated[1]);
  if (error.message.includes("end of JSON input")) return text.length;
  let viable = 0;
  let broken = text.length;
  while (broken - viable > 1) {
    const middle = Math.floor((viable + broken) / 2);
    if (beginsJson(text.slice(0, middle))) viable = middle;
    else broken = middle;
  }
  return broken - 1;
}

function beginsJson(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    const stated = /at position (\d+)/.exec(message);
    return message.includes("end of JSON input") || (stated !== null && Number(stated[1]) >= prefix.length);
  }
}

/** "line 3, column 7" (both from 1) of an offset in a text. */
function describeOffset(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `at line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}

function explainInvalidScript(value: unknown): string | undefined {
  if (Array.isArray(value)) return explainSteps(value, "");
  if (!isPlainObject(value)) return "expected an array of steps or {\"turns\": [[steps…], …]}";
  const extra = Object.keys(value).filter((key) => key !== "turns");
  if (extra.length > 0) return `unknown key "${extra[0]}" at top level; expected only "turns"`;
  if (!Array.isArray(value.turns)) return '"turns" must be an array of step arrays';
  for (const [index, turn] of value.turns.entries()) {
    const where = `turn ${index + 1}: `;
    if (!Array.isArray(turn)) return `${where}expected an array of steps`;
    const problem = explainSteps(turn, where);
    if (problem) return problem;
  }
  return undefined;
}

/** Steps are counted from 1, as a reader counts them in the file. */
function explainSteps(steps: unknown[], where: string): string | undefined {
  for (const [index, step] of steps.entries()) {
    const problem = explainStep(step);
    if (problem) return `${where}step ${index + 1}: ${problem}`;
  }
  return undefined;
}

function explainStep(step: unknown): string | undefined {
  if (!isPlainObject(step)) return `expected an object with one key (${stepNames.join(", ")})`;
  const keys = Object.keys(step);
  if (keys.length !== 1) {
    return `a step has exactly one key, found ${keys.length}${keys.length > 0 ? ` (${keys.join(", ")})` : ""}`;
  }
  const name = keys[0] as string;
  if (!Object.hasOwn(stepValueSchemas, name)) {
    return `unknown step "${name}"; known steps: ${stepNames.join(", ")}`;
  }
  if (name === "repeat") return explainRepeat(step[name]);
  const result = stepValueSchemas[name as StepName].safeParse(step[name]);
  return result.success ? undefined : formatIssue(result.error.issues[0], name);
}

/**
 * A `repeat`'s steps first, each explained as a step of its own (zod would say only "invalid
 * input" of a failed union inside it), then its own fields.
 */
function explainRepeat(value: unknown): string | undefined {
  if (isPlainObject(value) && Array.isArray(value["steps"])) {
    for (const [index, inner] of value["steps"].entries()) {
      if (isPlainObject(inner) && Object.hasOwn(inner, "repeat")) {
        return `repeat step ${index + 1}: a repeat cannot hold another repeat; multiply the times instead`;
      }
      const problem = explainStep(inner);
      if (problem) return `repeat step ${index + 1}: ${problem}`;
    }
  }
  const result = stepValueSchemas.repeat.safeParse(value);
  return result.success ? undefined : formatIssue(result.error.issues[0], "repeat");
}

function formatIssue(issue: z.core.$ZodIssue | undefined, stepName?: string): string {
  if (!issue) return "invalid script";
  const path = [stepName, ...issue.path.map(String)].filter((part) => part !== undefined).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
