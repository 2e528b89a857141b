import { join } from "node:path";
import { parse, TomlError } from "smol-toml";
import { z } from "zod";
import { agentConfigSchema, agentNameSchema } from "../agents/agent-entry.ts";
import { BatonError } from "../errors.ts";
import { readConfigText } from "./config-file.ts";
import { permissionRuleSchema } from "../permissions/policy.ts";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../trace/trace-store.ts";
import { MAX_COUNT, MAX_RETRY_WAIT_MS, MAX_TIMEOUT_MS, REPEATS_RANGE } from "./bounds.ts";
import { durationSchema } from "./duration-schema.ts";
import { ASK_CONFIG_TEXT, askTimeoutSchema, INPUT_CONFIG_TEXT, inputConfigSchema } from "./people-config.ts";
import { otelConfigSchema } from "./otel.ts";
import { storeConfigSchema } from "./store-config.ts";
import { artifactsConfigSchema } from "./artifacts-config.ts";
import { deliveryConfigSchema } from "./delivery-config.ts";
import { pipelineConfigSchema } from "./pipeline-config.ts";
import { setupConfigSchema } from "./setup-config.ts";
import { validationConfigSchema } from "./validation-config.ts";
import { proxyConfigSchema } from "./proxy-config.ts";
import { mcpConfigSchema } from "./mcp-config.ts";
import { SANDBOX_CONFIG_TEXT, sandboxConfigSchema } from "../sandbox/sandbox-config.ts";

/** A wait before a resend (or the longest a provider may ask for): jitter is added to it. */
const retryWait = durationSchema({ maxMs: MAX_RETRY_WAIT_MS, longest: "the longest a resend can wait (its jitter may double it)" });

/** Project settings from `.baton/config.toml`. Every key is optional; defaults are below. */
export const configSchema = z.strictObject({
  /** The agent `baton run` starts when no --agent is given (and no --script). */
  default_agent: agentNameSchema.optional(),
  /** Custom agents, and changes to built-in ones: see agents/agent-entry.ts. */
  agents: z.record(agentNameSchema, agentConfigSchema).optional(),
  permissions: z
    .strictObject({
      rules: z.array(permissionRuleSchema).default([]),
      /** The built-in rules after the user's: no `git push`; no edit, delete or move outside the workspace, in `.baton/` or `.git/`. */
      builtin_rules: z.boolean().default(true),
      /** How long a question of an `ask` rule waits for a person; see people-config.ts. */
      ask_timeout: askTimeoutSchema,
    })
    .prefault({}),
  input: inputConfigSchema,
  workspace: z
    .strictObject({
      /** `worktree`: each run in its own git worktree and branch; `in_place`: in the repository itself. */
      mode: z.enum(["worktree", "in_place"]).default("worktree"),
    })
    .default({ mode: "worktree" }),
  git: z
    .strictObject({
      /** Whether the repository's hooks run for Baton's own git commands (worktree, commit, branch). */
      hooks: z.boolean().default(false),
    })
    .default({ hooks: false }),
  isolation: z
    .strictObject({
      /** `user_namespace`: the agent in a user namespace of its own, where it cannot read Baton's process; `none`: as Baton runs. */
      agent: z.enum(["user_namespace", "none"]).default("user_namespace"),
    })
    .default({ agent: "user_namespace" }),
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
      /** The model the session switches to, once, when an overload outlasts its waits. */
      fallback_model: z.string().min(1).optional(),
    })
    .default({ cancel_grace_ms: 5_000 }),
  limits: z
    .strictObject({
      /** Wall-clock time for the whole run, waits included ("30m"). Unattended runs need one. */
      timeout: durationSchema({ maxMs: MAX_TIMEOUT_MS, positive: true }).optional(),
      /** Spend in USD, as the agent reports it. */
      max_cost_usd: z.number().positive().optional(),
      /** Input plus output tokens, as the agent reports them. */
      max_tokens: z.number().int().positive().max(MAX_COUNT).optional(),
      /** Model requests, as the inference proxy counts them: request N+1 is refused before it reaches the provider. */
      max_requests: z.number().int().positive().max(MAX_COUNT).optional(),
      /** Tool calls the agent may make. */
      max_tool_calls: z.number().int().positive().max(MAX_COUNT).optional(),
      /** The same tool call (tool, input, result) this many times in a row is a loop. Off unless set. */
      max_repeats: z.number().int().min(REPEATS_RANGE.min).max(REPEATS_RANGE.max).optional(),
    })
    .default({}),
  run: z
    .strictObject({
      /** What a run must leave: `change` (a change in its worktree) or `none`. */
      require_output: z.enum(["change", "none"]).default("change"),
    })
    .default({ require_output: "change" }),
  retry: z
    .strictObject({
      /** Waits before resending a turn that was rate limited or could not reach the provider. */
      rate_limited: z.array(retryWait).max(20).prefault(["10s", "20s", "40s"]),
      /** Waits before resending a turn the provider was overloaded for. */
      overloaded: z.array(retryWait).max(20).prefault(["10s", "20s", "30s", "40s", "50s", "60s"]),
      /** Up to this share of each wait is added at random, so that runs do not resend together. */
      jitter: z.number().min(0).max(1).default(0.25),
      /** A provider asking to wait longer than this (retry-after) is not waited for. */
      max_retry_after: retryWait.prefault("2m"),
    })
    .prefault({}),
  otel: otelConfigSchema,
  store: storeConfigSchema,
  setup: setupConfigSchema,
  validation: validationConfigSchema,
  delivery: deliveryConfigSchema,
  artifacts: artifactsConfigSchema,
  /** The built-in `pipeline` workflow's gates and parallelism (docs/delivery.md). */
  pipeline: pipelineConfigSchema,
  /** The loopback inference proxy: see proxy-config.ts. */
  proxy: proxyConfigSchema,
  /** MCP servers for every agent session: see mcp-config.ts. */
  mcp: mcpConfigSchema,
  /** The agent's sandbox: see sandbox/sandbox-config.ts. */
  sandbox: sandboxConfigSchema,
});
export type BatonConfig = z.infer<typeof configSchema>;

export const CONFIG_FILE = "config.toml";

// Parsed once per process: building zod's compiled fast path (its jit) costs more than it saves.
const ONCE = { jitless: true };

/** Reads and checks the project's config. A missing file means all defaults. */
export async function loadConfig(batonDir: string): Promise<BatonConfig> {
  const path = join(batonDir, CONFIG_FILE);
  const text = await readConfigText(path);
  return text === undefined ? configSchema.parse({}, ONCE) : parseConfig(text, path);
}

/**
 * Checks a config's text. A TOML syntax error names the file, line and column
 * (`path:line:column`, as editors and terminals link it); a key or value that does not fit the
 * schema names the key.
 */
export function parseConfig(text: string, path: string): BatonConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new BatonError("bad_config", tomlErrorLine(path, error), { hint: "fix the file or remove it to use the defaults" });
  }
  const parsed = configSchema.safeParse(raw, ONCE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "(top level)";
    throw new BatonError("bad_config", `${path}: ${where}: ${issue?.message ?? "invalid"}`, {
      hint: "see the comments in the file that `baton init` writes",
    });
  }
  return parsed.data;
}

/** `path:3:9: not valid TOML: invalid value`, from smol-toml's error (its message also holds a code excerpt, left out). */
function tomlErrorLine(path: string, error: unknown): string {
  const reason = ((error as Error).message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
  const where = error instanceof TomlError ? `${path}:${error.line}:${error.column}` : path;
  return `${where}: not valid TOML: ${reason}`;
}

/** The commented config that `baton init` writes. It parses to the defaults. */
export const DEFAULT_CONFIG_TEXT = `# Baton project settings. Every key is optional; the values shown are the defaults.

# The agent \`baton run\` starts without --agent (built-in: claude, opencode, codex, gemini).
# default_agent = "claude"

[session]
# How long an agent gets to end its turn after a cancel before it is signalled (ms).
cancel_grace_ms = 5000
# The model to switch to, once, when the provider stays overloaded through every wait.
# fallback_model = "claude-opus-4-1"

[limits]
# Wall-clock time for a run, waits for the provider included: "90s", "30m", "2h".
# A run with no terminal attached (or with --yes) is refused without one.
# timeout = "30m"
# max_cost_usd = 5        # USD, as the agent reports it (refused for agents that report none)
# max_tokens = 2000000    # input + output tokens, as the agent reports them
# max_requests = 200      # model requests, counted at Baton's inference proxy
# max_tool_calls = 500
# max_repeats = 5         # same tool, input and result this many times in a row: a loop
# At 60% and 80% of the most used limit Baton warns (and tells agents that take notices);
# at 95% it cancels the turn and asks the agent to hand back; at 100% it stops the run.

[run]
# What a run must leave: "change" (a change in its worktree) or "none". A turn that ends
# well without it gets one reminder; then the run fails with no_output.
require_output = "change"

[retry]
# Waits before a failed turn is sent again, by class of provider failure; a quarter of
# jitter is added. A provider's retry-after wins, unless it asks for more than max_retry_after.
rate_limited = ["10s", "20s", "40s"]    # also used for an unreachable provider
overloaded = ["10s", "20s", "30s", "40s", "50s", "60s"]
jitter = 0.25
max_retry_after = "2m"

${INPUT_CONFIG_TEXT}
[workspace]
# worktree: each run works in its own git worktree (.baton/worktrees/) on its own
# branch baton/<number>-<slug>, and Baton commits its changes there at the end.
# in_place: runs work in the repository itself and nothing is committed.
mode = "worktree"

[git]
# Whether the repository's hooks run for Baton's own git commands (making the worktree,
# the run's commit, deleting a branch). Off: a hook the agent wrote could run as Baton.
# pre-commit and commit-msg never run for the run's commit.
hooks = false

[isolation]
# user_namespace: each agent runs in a user namespace of its own (same user, same files), so
# its tools cannot read Baton's environment or memory, nor any other process's. Where the
# kernel allows none (a container may forbid them), the run logs a warning and goes on.
# none: the agent runs as Baton runs.
agent = "user_namespace"

${SANDBOX_CONFIG_TEXT}
[proxy]
# Agents reach their model only through Baton's loopback proxy (127.0.0.1, a random port),
# with a run token instead of the provider's key: Baton counts and prices every model request.
# enabled = false turns it off (agents then get the keys from pass_env, as before).
enabled = true
# Each provider's upstream and where Baton reads its key (key_env, key_file or key_command).
# [proxy.anthropic]
# base_url = "https://api.anthropic.com"
# key_env = "ANTHROPIC_API_KEY"
# [proxy.openai]
# base_url = "https://api.openai.com"
# key_env = "OPENAI_API_KEY"
# [proxy.gemini]
# base_url = "https://generativelanguage.googleapis.com"
# key_env = "GEMINI_API_KEY"
# [proxy.prices]   # USD per million tokens, by model id prefix; wins over Baton's table
# "my-model" = { input = 1.0, output = 4.0 }

[trace]
# The complete output of each tool call is kept in .baton/runs/<run>/outputs/,
# cut at this many characters (a marker line shows where).
max_output_chars = 100000

[otel]
# Where baton otel export and baton serve --otel send traces over OTLP/HTTP
# (the OTEL_EXPORTER_OTLP_* variables override these).
# endpoint = "http://localhost:4318"
# headers = { "x-api-key" = "…" }
protocol = "http/protobuf"   # or "http/json"
capture_content = false      # true: redacted, capped messages and tool arguments in spans
# Setup, validation, artifacts and merge (docs/delivery.md):
# [setup]
# commands = ["npm ci"]              # in each fresh worktree, before the first agent stage
# [validation]
# commands = ["npm test"]            # after the agent's work; a failure goes back to it to fix
# max_fix_rounds = 2
# [artifacts]
# include = ["coverage/**", "*.png"] # captured into the run's folder by sha256
# [delivery]
# mode = "manual"                    # "merge": merge each successful run into its base; "pull_request": open one
# strategy = "merge"                 # merge | squash | ff-only
# remote = "origin"                  # where a pull request's branch is pushed
# draft = false                      # open pull requests as drafts
# github_api_url = "https://api.github.com"   # GitHub Enterprise: https://HOST/api/v3
# [pipeline]                         # baton run TASK --workflow pipeline
# approvals = ["plan", "merge"]      # gates: spec, plan, review, merge
# max_parallel = 4                   # subtasks built at once
# MCP servers given to every agent session (ACP session/new mcpServers). Values of env and
# headers are secrets: redacted from every log. An HTTP server goes only to agents that say
# they take one; the others get a warning event.
# [[mcp.servers]]
# name = "docs"
# command = "docs-mcp"
# args = ["--stdio"]
# env = { DOCS_TOKEN = "…" }
# [[mcp.servers]]
# name = "tickets"
# url = "https://mcp.example.com/mcp"
# headers = { Authorization = "Bearer …" }

# A custom agent, or changes to a built-in one ([agents.claude] …): see the README.
# [agents.my-agent]
# command = "my-agent"             # looked up on PATH (and BATON_AGENT_PATH)
# args = ["--acp"]
# package = "my-agent-npm-package" # named in the error when the command is missing
# pass_env = ["MY_AGENT_*"]        # variables passed on; nothing else is inherited
# env = { MY_AGENT_TELEMETRY = "0" }
# model = { via = "env", name = "MY_AGENT_MODEL" }  # or via = "config_option" | "session_model"
# notices = false                  # true: takes a prompt mid-turn (told of limits and loops)
# reports_cost = false             # true: reports spend in USD (a cost budget needs it)
# reports_tokens = true            # false: reports no token usage (a token budget is refused)
# token_reports = "turn"           # "call": usage_update.used is each model call's tokens (Codex)
# stall_timeout = 120              # seconds with nothing from the agent: a stalled turn
# provider_error_prefixes = ["API Error:"]  # its last words when a provider refused a turn

# Permission requests from agents are answered by rules, first match wins.
# After your rules come the built-in ones: default:no-git-push (no execute of
# git push), default:outside-worktree (no edit, delete or move of a path
# outside the run's workspace, through symbolic links too), default:baton-state
# (none in .baton/) and default:git-dir (none in .git/); then default:allow
# (allowed once). Each decision is recorded in the run's events with the rule
# that made it.
#
# [permissions]
# builtin_rules = true    # false turns the built-in rules off
${ASK_CONFIG_TEXT}
#
# [[permissions.rules]]
# name = "no-push"        # recorded with each decision this rule makes
# action = "deny"         # allow | deny | ask (a person answers: baton allow|deny)
# kind = "execute"        # ACP tool kind: read, edit, delete, move, search, execute, fetch, other
# pattern = "git push*"   # glob on the command or path; * matches any text
`;
