import type { AgentEntryInput } from "./agent-entry.ts";

/**
 * The agents Baton knows without configuration, as data checked against the entry schema by a
 * test. How each starts, and which variables it needs, is measured in REAL-AGENTS.md. Fixed
 * `env` values only make an agent behave well unattended (no self-update). With the inference
 * proxy on (the default), each reaches its model through it as its `proxy` says, with a run
 * token and no provider key; with it off, keys come from the user's environment through `pass_env`.
 *
 * The fake agent is not here: it lives in the test kit, which the engine must not import, and
 * the CLI adds it (`fakeAgentEntry` in `@baton/testkit/launch`).
 */
export const BUILTIN_AGENTS = {
  claude: {
    description: "Claude Code through claude-agent-acp",
    command: "claude-agent-acp",
    package: "@agentclientprotocol/claude-agent-acp",
    pass_env: ["ANTHROPIC_*", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_*", "DISABLE_*", "IS_SANDBOX"],
    env: { DISABLE_AUTOUPDATER: "1" },
    // Any model id works through the variable, including ones behind ANTHROPIC_BASE_URL that
    // are not in the agent's own model list.
    model: { via: "env", name: "ANTHROPIC_MODEL" },
    proxy: { via: "env", provider: "anthropic", base_url_env: "ANTHROPIC_BASE_URL", key_env: "ANTHROPIC_API_KEY" },
    // Its default mode decides permissions itself; in `default` it asks, and Baton's rules answer.
    session_mode: "default",
    // A provider failure fails the prompt (-32603 "Internal error: API Error: …", or -32000
    // "Authentication required"); a turn it ends as done after one starts "API Error:".
    provider_error_prefixes: ["API Error:"],
    // usage_update carries `cost` in USD, with the turn's result. Its `used` mid-turn is the last
    // call's context, sent several times as a call streams and with cache reads and writes,
    // which its token counts leave out: its tokens count per turn.
    reports_cost: true,
    notices: false,
  },
  opencode: {
    description: "OpenCode (its provider keys come from `opencode auth` or pass_env)",
    command: "opencode",
    // Without --pure the first start tries to npm-install a plugin.
    args: ["acp", "--pure"],
    package: "opencode-ai",
    pass_env: ["OPENCODE_*", "XDG_*"],
    env: { OPENCODE_DISABLE_AUTOUPDATE: "1" },
    // Model ids are provider/model, as in OpenCode's own config.
    model: { via: "session_model" },
    // Its built-in anthropic, openai and google providers, and configured providers of those
    // APIs' packages, get the proxy's base URL and the token in OPENCODE_CONFIG_CONTENT.
    proxy: { via: "opencode" },
    // A provider failure fails the prompt (-32603 "Internal error: <the provider's message>"),
    // after its own retries; it never ends such a turn as done.
    provider_error_prefixes: [],
    // Its usage_update carries `cost` in USD, before the turn's answer; it sends none for a model
    // of unknown context size (a custom provider's model without `limit`).
    reports_cost: true,
    notices: false,
  },
  codex: {
    description: "Codex through codex-acp",
    command: "codex-acp",
    package: "@agentclientprotocol/codex-acp",
    // A provider's `env_key` in the user's config.toml names a variable Baton cannot know:
    // add it with `pass_env` in [agents.codex].
    pass_env: ["CODEX_HOME", "OPENAI_API_KEY", "NO_BROWSER"],
    model: { via: "config_option", id: "model" },
    // A model provider of Baton's (Responses API at the proxy) in CODEX_CONFIG, chosen for its sessions.
    proxy: { via: "codex" },
    // Its default mode ("agent") has its own model review escalations; in "workspace-write" it
    // asks the client, and Baton's rules answer.
    session_mode: "workspace-write",
    // Except for a 401 (-32000 "Authentication required"), it ends the turn as done after a
    // provider failure, with the error only in its last message, in one of these forms.
    provider_error_prefixes: [
      "unexpected status ",
      "exceeded retry limit, last status:",
      "stream disconnected before completion:",
      "We’re currently experiencing high demand",
    ],
    // usage_update carries tokens, no cost: after each model call, `used` is that call's input +
    // output tokens (its last token usage), and they add up to the turn's.
    reports_cost: false,
    token_reports: "call",
    notices: false,
  },
  gemini: {
    description: "Gemini CLI",
    command: "gemini",
    args: ["--acp"],
    package: "@google/gemini-cli",
    pass_env: ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_*"],
    // Without it the CLI re-launches itself in a child process with more memory.
    env: { GEMINI_CLI_NO_RELAUNCH: "1" },
    model: { via: "env", name: "GEMINI_MODEL" },
    // Through the proxy, Baton counts its tokens and cost though it reports neither.
    proxy: { via: "env", provider: "gemini", base_url_env: "GOOGLE_GEMINI_BASE_URL", key_env: "GEMINI_API_KEY" },
    // Its file-exists check mishandles a JSON-RPC error from the client's fs, and writes fail.
    no_client_fs: true,
    // It fails the prompt with the provider's HTTP status as the JSON-RPC code and the provider's
    // message (or error body) as the message; a 429's message need not say so.
    rate_limit_code: 429,
    provider_error_prefixes: [],
    // It sends no usage_update, and its prompt answers carry no usage.
    reports_cost: false,
    reports_tokens: false,
    notices: false,
  },
} as const satisfies Record<string, AgentEntryInput>;
