import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "smol-toml";
import { z } from "zod";
import { agentConfigSchema, agentNameSchema } from "../agents/agent-entry.ts";
import { BatonError } from "../errors.ts";
import { permissionRuleSchema } from "../permissions/policy.ts";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../trace/trace-store.ts";

/** Project settings from `.baton/config.toml`. Every key is optional; defaults are below. */
export const configSchema = z.strictObject({
  /** The agent `baton run` starts when no --agent is given (and no --script). */
  default_agent: agentNameSchema.optional(),
  /** Custom agents, and changes to built-in ones: see agents/agent-entry.ts. */
  agents: z.record(agentNameSchema, agentConfigSchema).optional(),
  permissions: z
    .strictObject({
      rules: z.array(permissionRuleSchema).default([]),
      /** The built-in rules after the user's: no `git push`, no edit, delete or move outside the workspace. */
      builtin_rules: z.boolean().default(true),
    })
    .default({ rules: [], builtin_rules: true }),
  workspace: z
    .strictObject({
      /** `worktree`: each run in its own git worktree and branch; `in_place`: in the repository itself. */
      mode: z.enum(["worktree", "in_place"]).default("worktree"),
    })
    .default({ mode: "worktree" }),
  trace: z
    .strictObject({
      /** Cap on one tool call's stored output, in characters; a marker line shows the cut. */
      max_output_chars: z.number().int().min(1_000).max(100_000_000).default(DEFAULT_MAX_OUTPUT_CHARS),
    })
    .default({ max_output_chars: DEFAULT_MAX_OUTPUT_CHARS }),
  session: z
    .strictObject({
      /** How long an agent gets to end its turn after `session/cancel` before it is signalled. */
      cancel_grace_ms: z.number().int().min(0).max(600_000).default(5_000),
    })
    .default({ cancel_grace_ms: 5_000 }),
});
export type BatonConfig = z.infer<typeof configSchema>;

export const CONFIG_FILE = "config.toml";

/** Reads and checks the project's config. A missing file means all defaults. */
export async function loadConfig(batonDir: string): Promise<BatonConfig> {
  const path = join(batonDir, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return configSchema.parse({});
    throw error;
  }
  return parseConfig(text, path);
}

export function parseConfig(text: string, path: string): BatonConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new BatonError("bad_config", `${path} is not valid TOML (${(error as Error).message.split("\n")[0]})`, {
      hint: "fix the file or remove it to use the defaults",
    });
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "(top level)";
    throw new BatonError("bad_config", `${path}: ${where}: ${issue?.message ?? "invalid"}`, {
      hint: "see the comments in the file that `baton init` writes",
    });
  }
  return parsed.data;
}

/** The commented config that `baton init` writes. It parses to the defaults. */
export const DEFAULT_CONFIG_TEXT = `# Baton project settings. Every key is optional; the values shown are the defaults.

# The agent \`baton run\` starts without --agent (built-in: claude, opencode, codex, gemini).
# default_agent = "claude"

[session]
# How long an agent gets to end its turn after a cancel before it is signalled (ms).
cancel_grace_ms = 5000

[workspace]
# worktree: each run works in its own git worktree (.baton/worktrees/) on its own
# branch baton/<number>-<slug>, and Baton commits its changes there at the end.
# in_place: runs work in the repository itself and nothing is committed.
mode = "worktree"

[trace]
# The complete output of each tool call is kept in .baton/runs/<run>/outputs/,
# cut at this many characters (a marker line shows where).
max_output_chars = 100000

# A custom agent, or changes to a built-in one ([agents.claude] …): see the README.
# [agents.my-agent]
# command = "my-agent"             # looked up on PATH (and BATON_AGENT_PATH)
# args = ["--acp"]
# package = "my-agent-npm-package" # named in the error when the command is missing
# pass_env = ["MY_AGENT_*"]        # variables passed on; nothing else is inherited
# env = { MY_AGENT_TELEMETRY = "0" }
# model = { via = "env", name = "MY_AGENT_MODEL" }  # or via = "config_option" | "session_model"

# Permission requests from agents are answered by rules, first match wins.
# After your rules come the built-in ones: default:no-git-push (no execute of
# git push) and default:outside-worktree (no edit, delete or move of a path
# outside the run's workspace); then default:allow (allowed once). Each decision
# is recorded in the run's events with the rule that made it.
#
# [permissions]
# builtin_rules = true    # false turns the built-in rules off
#
# [[permissions.rules]]
# name = "no-push"        # recorded with each decision this rule makes
# action = "deny"         # allow | deny
# kind = "execute"        # ACP tool kind: read, edit, delete, move, search, execute, fetch, other
# pattern = "git push*"   # glob on the command or path; * matches any text
`;
