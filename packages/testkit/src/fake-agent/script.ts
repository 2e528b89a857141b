import { readFile } from "node:fs/promises";
import { isAbsolute, normalize, sep } from "node:path";
import { z } from "zod";

/**
 * What one step of a fake-agent script may hold, keyed by step name. Each step in a script
 * is an object with exactly one of these keys.
 */
export const stepValueSchemas = {
  say: z.string().min(1),
  think: z.string().min(1),
  plan: z
    .array(
      z.strictObject({
        content: z.string().min(1),
        status: z.enum(["pending", "in_progress", "completed"]),
        priority: z.enum(["high", "medium", "low"]).optional(),
      }),
    )
    .min(1),
  write: z.strictObject({
    path: z.string().min(1).refine(staysInside, "must be a relative path that stays inside the session's cwd"),
    content: z.string(),
  }),
  /** A write that may leave the session's cwd (absolute, or with `..`): for testing permission policies. */
  write_anywhere: z.strictObject({ path: z.string().min(1), content: z.string() }),
  delete: z.string().min(1).refine(staysInside, "must be a relative path that stays inside the session's cwd"),
  move: z.strictObject({
    from: z.string().min(1).refine(staysInside, "must be a relative path that stays inside the session's cwd"),
    to: z.string().min(1).refine(staysInside, "must be a relative path that stays inside the session's cwd"),
  }),
  run: z.string().min(1),
  usage: z.strictObject({
    input_tokens: z.int().nonnegative().optional(),
    output_tokens: z.int().nonnegative().optional(),
    cost_usd: z.number().nonnegative().optional(),
  }),
  sleep: z.int().nonnegative(),
  flood: z.int().positive(),
  fail: z.strictObject({ code: z.int(), message: z.string().min(1), data: z.unknown().optional() }),
  crash: z.int().min(0).max(255),
  stop: z.enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]),
  // Loose on purpose: the point of this step is to put updates Baton does not know on the wire.
  update: z.looseObject({ sessionUpdate: z.string().min(1) }),
  ext: z.strictObject({
    // ACP reserves names starting with "_" for extensions; anything else would be a protocol method.
    method: z.string().regex(/^_./, 'must start with "_" (ACP extension methods do)'),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
} as const;

export type StepName = keyof typeof stepValueSchemas;
export const stepNames = Object.keys(stepValueSchemas) as StepName[];

/** The zod schema of one step: an object with exactly one known key. */
export const stepSchema = z.union([
  z.strictObject({ say: stepValueSchemas.say }),
  z.strictObject({ think: stepValueSchemas.think }),
  z.strictObject({ plan: stepValueSchemas.plan }),
  z.strictObject({ write: stepValueSchemas.write }),
  z.strictObject({ write_anywhere: stepValueSchemas.write_anywhere }),
  z.strictObject({ delete: stepValueSchemas.delete }),
  z.strictObject({ move: stepValueSchemas.move }),
  z.strictObject({ run: stepValueSchemas.run }),
  z.strictObject({ usage: stepValueSchemas.usage }),
  z.strictObject({ sleep: stepValueSchemas.sleep }),
  z.strictObject({ flood: stepValueSchemas.flood }),
  z.strictObject({ fail: stepValueSchemas.fail }),
  z.strictObject({ crash: stepValueSchemas.crash }),
  z.strictObject({ stop: stepValueSchemas.stop }),
  z.strictObject({ update: stepValueSchemas.update }),
  z.strictObject({ ext: stepValueSchemas.ext }),
]);

/** The zod schema of a script as written: a list of steps (one turn) or `{turns: [[…], …]}`. */
export const scriptSchema = z.union([
  z.array(stepSchema),
  z.strictObject({ turns: z.array(z.array(stepSchema)) }),
]);

export type Step = z.infer<typeof stepSchema>;
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
  const result = stepValueSchemas[name as StepName].safeParse(step[name]);
  return result.success ? undefined : formatIssue(result.error.issues[0], name);
}

function formatIssue(issue: z.core.$ZodIssue | undefined, stepName?: string): string {
  if (!issue) return "invalid script";
  const path = [stepName, ...issue.path.map(String)].filter((part) => part !== undefined).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

function staysInside(path: string): boolean {
  if (isAbsolute(path)) return false;
  const normalized = normalize(path);
  return normalized !== ".." && !normalized.startsWith(`..${sep}`) && normalized !== ".";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
