import { isAbsolute, normalize, sep } from "node:path";
import { z } from "zod";

/** Most times a `repeat` plays its steps: enough for a loop of hundreds of tool calls. */
export const MAX_REPEAT_TIMES = 10_000;

/** Node's timers fire at once past 2^31 - 1 ms (about 24.8 days): a longer wait is a mistake. */
const MAX_WAIT_MS = 2 ** 31 - 1;

const insidePath = z.string().min(1).refine(staysInside, "must be a relative path that stays inside the session's cwd");

/** What each step other than `repeat` may hold, keyed by step name. */
const playableStepValueSchemas = {
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
  write: z.strictObject({ path: insidePath, content: z.string() }),
  /** A write that may leave the session's cwd (absolute, or with `..`): for testing permission policies. */
  write_anywhere: z.strictObject({ path: z.string().min(1), content: z.string() }),
  delete: insidePath,
  move: z.strictObject({ from: insidePath, to: insidePath }),
  run: z.string().min(1),
  usage: z.strictObject({
    input_tokens: z.int().nonnegative().optional(),
    output_tokens: z.int().nonnegative().optional(),
    cost_usd: z.number().nonnegative().optional(),
  }),
  /** Streamed model calls to ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY (Baton's inference proxy), `parallel` at once. */
  model_call: z.strictObject({
    parallel: z.int().min(1).max(64).optional(),
    model: z.string().min(1).optional(),
    prompt: z.string().min(1).optional(),
    max_tokens: z.int().positive().optional(),
    /** Tools offered to the model (each takes `path` and `content`): the model may ask to call one, which the step does not run or report. */
    tools: z.array(z.string().min(1)).max(16).optional(),
    fail_on_error: z.boolean().optional(),
  }),
  /** A wait a cancel cuts short; a long one is a stalled turn (nothing on the wire meanwhile). */
  sleep: z.int().nonnegative().max(MAX_WAIT_MS),
  /** A wait that ignores `session/cancel`: an agent that does not answer a cancel. */
  hang: z.int().nonnegative().max(MAX_WAIT_MS),
  /**
   * A wait until a file exists (absolute, or relative to the session's cwd), cut short by a
   * cancel: a test makes the file when it has seen what it checks, so the turn goes on when
   * the test says, never after a guessed time. Only looked at, so it may be anywhere.
   */
  wait_for: z.string().min(1),
  /**
   * A wait until a prompt that arrived mid-turn (a notice, a person's input) holds this text,
   * cut short by a cancel; then the turn plays on. Shows the agent got a mid-turn prompt.
   */
  wait_for_notice: z.string().min(1),
  flood: z.int().positive(),
  /** A line on the agent's stderr, as agents print a provider's refusal before they give up. */
  stderr: z.string(),
  fail: z.strictObject({ code: z.int(), message: z.string().min(1), data: z.unknown().optional() }),
  crash: z.int().min(0).max(255),
  stop: z.enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]),
  // Loose on purpose: the point of this step is to put updates Baton does not know on the wire.
  update: z.looseObject({ sessionUpdate: z.string().min(1) }),
  /**
   * A question for the user through ACP elicitation (a form), as Claude Code asks its
   * AskUserQuestion: tied to a tool call, it waits for the answer (a cancel cuts it short) and
   * says what came back. A client that takes no form questions is not asked.
   */
  ask: z.strictObject({
    message: z.string().min(1),
    /** The form's `requestedSchema` (ACP's elicitation schema); left loose so scripts can send ones a client must refuse. */
    schema: z.looseObject({ type: z.literal("object").optional(), properties: z.record(z.string(), z.looseObject({})), required: z.array(z.string()).optional() }),
    /** `url` sends a URL question instead (which a client that takes only forms declines). */
    mode: z.enum(["form", "url"]).optional(),
    /** Ask even a client that did not say it takes form questions, as a misbehaving agent would. */
    regardless: z.boolean().optional(),
  }),
  ext: z.strictObject({
    // ACP reserves names starting with "_" for extensions; anything else would be a protocol method.
    method: z.string().regex(/^_./, 'must start with "_" (ACP extension methods do)'),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
} as const;

/** One step that plays by itself: an object with exactly one known key other than `repeat`. */
const playableStepSchema = z.union([
  z.strictObject({ say: playableStepValueSchemas.say }),
  z.strictObject({ think: playableStepValueSchemas.think }),
  z.strictObject({ plan: playableStepValueSchemas.plan }),
  z.strictObject({ write: playableStepValueSchemas.write }),
  z.strictObject({ write_anywhere: playableStepValueSchemas.write_anywhere }),
  z.strictObject({ delete: playableStepValueSchemas.delete }),
  z.strictObject({ move: playableStepValueSchemas.move }),
  z.strictObject({ run: playableStepValueSchemas.run }),
  z.strictObject({ usage: playableStepValueSchemas.usage }),
  z.strictObject({ model_call: playableStepValueSchemas.model_call }),
  z.strictObject({ sleep: playableStepValueSchemas.sleep }),
  z.strictObject({ hang: playableStepValueSchemas.hang }),
  z.strictObject({ wait_for: playableStepValueSchemas.wait_for }),
  z.strictObject({ wait_for_notice: playableStepValueSchemas.wait_for_notice }),
  z.strictObject({ flood: playableStepValueSchemas.flood }),
  z.strictObject({ stderr: playableStepValueSchemas.stderr }),
  z.strictObject({ fail: playableStepValueSchemas.fail }),
  z.strictObject({ crash: playableStepValueSchemas.crash }),
  z.strictObject({ stop: playableStepValueSchemas.stop }),
  z.strictObject({ update: playableStepValueSchemas.update }),
  z.strictObject({ ask: playableStepValueSchemas.ask }),
  z.strictObject({ ext: playableStepValueSchemas.ext }),
]);

/**
 * What one step of a fake-agent script may hold, keyed by step name. Each step in a script
 * is an object with exactly one of these keys. A `repeat` holds steps that are not `repeat`s:
 * one level keeps the work a script can ask for bounded by {@link MAX_REPEAT_TIMES}.
 */
export const stepValueSchemas = {
  ...playableStepValueSchemas,
  repeat: z.strictObject({
    times: z.int().min(1).max(MAX_REPEAT_TIMES),
    steps: z.array(playableStepSchema).min(1),
  }),
} as const;

export type StepName = keyof typeof stepValueSchemas;
export const stepNames = Object.keys(stepValueSchemas) as StepName[];

/** The zod schema of one step: an object with exactly one known key. */
export const stepSchema = z.union([playableStepSchema, z.strictObject({ repeat: stepValueSchemas.repeat })]);

export type Step = z.infer<typeof stepSchema>;
/** A step that is not a `repeat`: what a `repeat` holds. */
export type PlayableStep = z.infer<typeof playableStepSchema>;

function staysInside(path: string): boolean {
  if (isAbsolute(path)) return false;
  const normalized = normalize(path);
  return normalized !== ".." && !normalized.startsWith(`..${sep}`) && normalized !== ".";
}
