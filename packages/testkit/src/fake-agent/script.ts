import { readFile } from "node:fs/promises";
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
    throw new Error(`script ${source}: not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return validateScript(value, source);
}

/** Reads and parses a script file; errors name the file. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`script ${path}: cannot read: ${(error as Error).message}`, { cause: error });
  }
  return parseScript(text, path);
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
