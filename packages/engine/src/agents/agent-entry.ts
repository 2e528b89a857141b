import { z } from "zod";
import { proxyWiringSchema } from "./proxy-wiring.ts";

/** An environment variable name, or a pattern of them with `*` (`CLAUDE_CODE_*`). */
const envPattern = z.string().regex(/^[A-Za-z_*][A-Za-z0-9_*]*$/, "must be an environment variable name, optionally with * (like CLAUDE_CODE_*)");
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name");

/**
 * How `--model` reaches the agent: an environment variable, an ACP session config option
 * (`session/set_config_option`), the older `session/set_model`, or not at all (`none`).
 */
export const modelChoiceSchema = z.discriminatedUnion("via", [
  z.strictObject({ via: z.literal("env"), name: envName }),
  z.strictObject({ via: z.literal("config_option"), id: z.string().min(1).default("model") }),
  z.strictObject({ via: z.literal("session_model") }),
  z.strictObject({ via: z.literal("none") }),
]);
export type ModelChoice = z.infer<typeof modelChoiceSchema>;

/** The fields of an agent entry, every one optional: what `[agents.<name>]` in config may hold. */
const entryFields = {
  /** One line for `baton agents`. */
  description: z.string().optional(),
  /** The executable: a name looked up on the agent's PATH, or a path. */
  command: z.string().min(1),
  args: z.array(z.string()),
  /** The npm package that provides the command: named in the error when it is missing. */
  package: z.string().min(1).optional(),
  /** Variables passed from Baton's environment besides the base ones; `*` matches any text. */
  pass_env: z.array(envPattern),
  /** Fixed values, set whatever Baton's environment holds. */
  env: z.record(envName, z.string()),
  model: modelChoiceSchema,
  /** How it is pointed at Baton's inference proxy (its base URL and run token): see proxy-wiring.ts. */
  proxy: proxyWiringSchema,
  /** Never advertise the client `fs` capability (Gemini CLI mishandles it). */
  no_client_fs: z.boolean(),
  /** `session/set_mode` to this mode after `session/new` (Claude asks permission in `default`). */
  session_mode: z.string().min(1).optional(),
  /** Arguments that print the version (instead of `args`); run with a short timeout. */
  version_args: z.array(z.string()),
  /** For agents that play a script file (the fake): `--script FILE` is passed with this flag. */
  script_arg: z.string().min(1).optional(),
  /**
   * Whether the agent takes a `session/prompt` in the middle of a running turn without ending
   * it: only then is it told of limit warnings and repeats in a prompt of its own (a notice).
   */
  notices: z.boolean(),
  /** Whether it reports its spend in USD (ACP `usage_update.cost`): a cost budget needs it. */
  reports_cost: z.boolean(),
  /** Whether it reports tokens used (the prompt answer's `usage`): a token budget needs it. */
  reports_tokens: z.boolean(),
  /**
   * When its token counts arrive: `turn`, with each turn's answer, or `call`, also after each
   * model call (its `usage_update.used` is that call's input + output tokens, as Codex sends
   * it). A token budget is checked when counts arrive, so it can be overshot by one turn, or
   * by one model call.
   */
  token_reports: z.enum(["turn", "call"]),
  /**
   * Seconds without anything from the agent (while no tool call runs) after which a turn counts
   * as stalled: cancelled and sent again once; a second stall fails the run.
   */
  stall_timeout: z.number().min(0.1).max(86_400).optional(),
  /**
   * Words the agent's last message in a turn starts with when it ends the turn as done after a
   * refused model request (Claude Code's "API Error:"): such a turn counts as failed.
   */
  provider_error_prefixes: z.array(z.string().min(1)),
  /** A JSON-RPC error code the agent answers a rate-limited turn with, whatever its words. */
  rate_limit_code: z
    .number()
    .int()
    .refine((code) => code > -32000 || code < -32768, "must not be one of JSON-RPC's reserved codes (-32768 to -32000)")
    .optional(),
};

/** A complete registry entry: built-ins are this data, and so is a config entry after merging. */
export const agentEntrySchema = z.strictObject({
  ...entryFields,
  args: entryFields.args.default([]),
  pass_env: entryFields.pass_env.default([]),
  env: entryFields.env.default({}),
  model: entryFields.model.default({ via: "none" }),
  proxy: entryFields.proxy.default({ via: "none" }),
  no_client_fs: entryFields.no_client_fs.default(false),
  version_args: entryFields.version_args.default(["--version"]),
  notices: entryFields.notices.default(false),
  reports_cost: entryFields.reports_cost.default(false),
  reports_tokens: entryFields.reports_tokens.default(true),
  token_reports: entryFields.token_reports.default("turn"),
  provider_error_prefixes: entryFields.provider_error_prefixes.default([]),
});
export type AgentEntry = z.infer<typeof agentEntrySchema>;
export type AgentEntryInput = z.input<typeof agentEntrySchema>;

/**
 * `[agents.<name>]` in `.baton/config.toml`: a new agent (then `command` is required) or changes
 * to a built-in one. Over a built-in, `pass_env` and `env` add to the built-in's; the other
 * fields replace its.
 */
export const agentConfigSchema = z.strictObject({
  description: entryFields.description,
  command: entryFields.command.optional(),
  args: entryFields.args.optional(),
  package: entryFields.package,
  pass_env: entryFields.pass_env.optional(),
  env: entryFields.env.optional(),
  model: entryFields.model.optional(),
  proxy: entryFields.proxy.optional(),
  no_client_fs: entryFields.no_client_fs.optional(),
  session_mode: entryFields.session_mode,
  version_args: entryFields.version_args.optional(),
  script_arg: entryFields.script_arg,
  notices: entryFields.notices.optional(),
  reports_cost: entryFields.reports_cost.optional(),
  reports_tokens: entryFields.reports_tokens.optional(),
  token_reports: entryFields.token_reports.optional(),
  stall_timeout: entryFields.stall_timeout,
  provider_error_prefixes: entryFields.provider_error_prefixes.optional(),
  rate_limit_code: entryFields.rate_limit_code,
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

/** Agent names as `--agent` takes them and `[agents.<name>]` declares them. */
export const agentNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "agent names are lower-case letters, digits, - and _");
