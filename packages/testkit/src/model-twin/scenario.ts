import { z } from "zod";

/** Statuses a `status` fault may answer with: the ones providers use for transient and account errors. */
export const FAULT_STATUSES = [400, 401, 402, 403, 404, 429, 500, 502, 503, 529] as const;

const times = z.int().positive().optional().describe("how many matching requests get the fault; all when omitted");
const on = z.enum(["main", "any"]).default("main").describe("main: only the main conversation; any: every model call");

/** A fault injected into the replies of a scenario. */
export const faultSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("status"),
    status: z.union(FAULT_STATUSES.map((status) => z.literal(status))),
    /** Seconds, sent as `retry-after` (and `retry-after-ms`). */
    retryAfter: z.number().nonnegative().optional(),
    message: z.string().min(1).optional(),
    times,
    on,
  }),
  /** The socket is reset (RST) before any byte of a reply. */
  z.strictObject({ kind: z.literal("reset"), times, on }),
  /** The reply starts, sends `afterChunks` stream chunks, then holds the socket without a byte more. */
  z.strictObject({ kind: z.literal("stall"), afterChunks: z.int().nonnegative().default(2), times, on }),
  /** Every stream chunk (or a whole non-streamed reply) waits `delayMs` first. */
  z.strictObject({ kind: z.literal("slow"), delayMs: z.int().positive(), times, on }),
]);

/** One tool call of a multi-step scenario. */
export const stepSchema = z.union([
  z.strictObject({ write: z.strictObject({ path: z.string().min(1), content: z.string() }) }),
  /**
   * `escalate`: ask for the command to run outside the agent's sandbox where the shell tool's
   * schema offers it (Codex's `sandbox_permissions: "require_escalated"`), so the agent asks the
   * client's permission first.
   */
  z.strictObject({ run: z.string().min(1), escalate: z.boolean().optional() }),
  /**
   * A call of the tool the agent offers by that name (or behind an MCP prefix), with these
   * arguments as they are: Claude Code's `AskUserQuestion`, say, to make the agent ask its user.
   */
  z.strictObject({ tool: z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.unknown()) }) }),
]);

const reply = z.string().min(1).optional().describe("the final text reply");
const fault = faultSchema.optional();

/** The scenarios that play one conversation: a text reply, a file write, a command, several steps. */
const playedScenarios = [
  z.strictObject({ name: z.literal("text"), reply, fault }),
  z.strictObject({
    name: z.literal("write"),
    path: z.string().min(1).default("twin.txt"),
    content: z.string().default("written by the model twin\n"),
    reply,
    fault,
  }),
  z.strictObject({ name: z.literal("run"), command: z.string().min(1), escalate: z.boolean().optional(), reply, fault }),
  z.strictObject({ name: z.literal("steps"), steps: z.array(stepSchema).min(1), reply, fault }),
] as const;

const playedScenarioSchema = z.discriminatedUnion("name", [...playedScenarios]);

/**
 * `by_prompt`: each model call plays the first case whose `contains` is in the text of its last
 * user message (the prompt an agent was given), else `otherwise` (default `text`). Several
 * sessions, each on its own prompt (the stages of a workflow), get each its own scenario, with
 * no switch to time between them. Its `fault` applies to every call whose case has none.
 */
const byPromptSchema = z.strictObject({
  name: z.literal("by_prompt"),
  cases: z.array(z.strictObject({ contains: z.string().min(1), scenario: playedScenarioSchema })).min(1),
  otherwise: playedScenarioSchema.default({ name: "text" }),
  fault,
});

/** A scenario as written: what the twin answers to the main conversation, and which fault it injects. */
export const scenarioSchema = z.discriminatedUnion("name", [...playedScenarios, byPromptSchema]);

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
/** A scenario that plays a conversation by itself (every one but `by_prompt`). */
export type PlayedScenario = z.output<typeof playedScenarioSchema>;
export type ScenarioName = Scenario["name"];
export type Fault = z.output<typeof faultSchema>;
export type FaultInput = z.input<typeof faultSchema>;
export type Step = z.output<typeof stepSchema>;

export const SCENARIO_NAMES: readonly ScenarioName[] = ["text", "write", "run", "steps", "by_prompt"];
export const DEFAULT_REPLY = "Done: the model twin has nothing more to do.";

/** Thrown for a scenario the twin cannot play; the message is one line naming the problem. */
export class ScenarioError extends Error {
  readonly code = "bad_scenario";
  override readonly name = "ScenarioError";
}

/**
 * Validates a scenario: an object, or just a name (`"text"`, `"write"`; `run`, `steps` and `by_prompt`
 * need their fields).
 *
 * @throws ScenarioError naming the problem, e.g. `unknown scenario "wirte"; known: text, write, run, steps, by_prompt`.
 * @example parseScenario({ name: "write", path: "src/a.ts", fault: { kind: "status", status: 429, times: 1 } })
 */
export function parseScenario(input: unknown): Scenario {
  const value = typeof input === "string" ? { name: input } : input;
  const name = (value as { name?: unknown } | null)?.name;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ScenarioError(`a scenario is a name or an object with "name"; known names: ${SCENARIO_NAMES.join(", ")}`);
  }
  if (typeof name !== "string" || !(SCENARIO_NAMES as readonly string[]).includes(name)) {
    throw new ScenarioError(`unknown scenario ${JSON.stringify(name)}; known: ${SCENARIO_NAMES.join(", ")}`);
  }
  const parsed = scenarioSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "scenario";
    throw new ScenarioError(`scenario ${JSON.stringify(name)}: ${where}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/**
 * What a model call plays: the scenario itself, or for `by_prompt` the case its last user
 * message names (with the `by_prompt` fault when the case has none).
 */
export function scenarioFor(scenario: Scenario, lastUserText: string): PlayedScenario {
  if (scenario.name !== "by_prompt") return scenario;
  const played = scenario.cases.find((entry) => lastUserText.includes(entry.contains))?.scenario ?? scenario.otherwise;
  return played.fault === undefined && scenario.fault !== undefined ? { ...played, fault: scenario.fault } : played;
}

/** The tool calls the main conversation plays, one per round trip, before the final reply (`by_prompt`: its `otherwise`'s). */
export function scenarioSteps(scenario: Scenario): Step[] {
  switch (scenario.name) {
    case "text":
      return [];
    case "write":
      return [{ write: { path: scenario.path, content: scenario.content } }];
    case "run":
      return [{ run: scenario.command, ...(scenario.escalate === undefined ? {} : { escalate: scenario.escalate }) }];
    case "steps":
      return scenario.steps;
    case "by_prompt":
      return scenarioSteps(scenario.otherwise);
  }
}
