// How to point each real agent at the model twin: its start arguments, its environment, and the
// config files it reads, all inside a throwaway home. The facts behind each entry are measured in
// shared/design/REAL-AGENTS.md; the conformance suite starts agents through `agentLaunch`.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AGENT_PINS, agentBinPath } from "../../scripts/agents/agent-cache.ts";
import type { AgentName } from "../../scripts/agents/agent-cache.ts";

export type ProfileInput = {
  /** The twin's base URL, without a trailing slash. */
  twinUrl: string;
  /** A throwaway home folder; the profile writes the agent's config files below it. */
  home: string;
  model: string;
};

/** What a client must know to start and drive one agent against the twin. */
export type AgentLaunch = {
  agent: AgentName;
  version: string;
  command: string;
  args: string[];
  /** The profile's variables only; add PATH, HOME and locale (see `isolatedEnv`). */
  env: Record<string, string>;
  /** Whether the client may advertise `fs` read/write capabilities. */
  clientFs: boolean;
  /** A `session/set_mode` to send after `session/new`, when the default mode would not ask permission. */
  sessionMode?: string;
};

type Profile = {
  args: string[];
  clientFs: boolean;
  sessionMode?: string;
  /** Writes the agent's config files into the home and returns its variables. */
  configure(input: ProfileInput): Promise<Record<string, string>>;
};

/** Any string works: the twin checks no key. It is long enough that Baton's redaction catches it. */
export const TWIN_API_KEY = "twin-api-key-not-a-secret";

async function writeConfig(path: string, text: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

/** Codex features that fetch plugins, apps or updates from the internet. */
const CODEX_NETWORK_FEATURES = [
  "plugins",
  "remote_plugin",
  "plugin_discovery_prefetch",
  "plugin_sharing",
  "apps",
  "tool_suggest",
  "in_app_updates",
  "skill_mcp_dependency_install",
];

/**
 * OpenCode installs `@opencode-ai/plugin` from the npm registry into every config folder, even
 * with --pure, unless the folder has a node_modules and a lockfile that lists every dependency
 * of its package.json. This seeds exactly that, so it starts without the network.
 */
async function seedOpenCodeConfigDir(dir: string): Promise<void> {
  const dependencies = { "@opencode-ai/plugin": "*" };
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ dependencies })}\n`);
  await writeFile(join(dir, "package-lock.json"), `${JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies } } })}\n`);
}

const PROFILES: Record<AgentName, Profile> = {
  opencode: {
    // --pure: without it the first start npm-installs a plugin.
    args: ["acp", "--pure"],
    clientFs: true,
    async configure({ twinUrl, home, model }) {
      const config = {
        $schema: "https://opencode.ai/config.json",
        provider: {
          twin: {
            npm: "@ai-sdk/openai-compatible",
            name: "Model twin",
            options: { baseURL: `${twinUrl}/v1`, apiKey: TWIN_API_KEY },
            models: { [model]: { name: model, tool_call: true } },
          },
        },
        model: `twin/${model}`,
        small_model: `twin/${model}`,
        // By default OpenCode edits without asking; "ask" makes it send session/request_permission.
        permission: { edit: "ask", bash: "ask" },
        autoupdate: false,
        share: "disabled",
      };
      await seedOpenCodeConfigDir(join(home, ".config", "opencode"));
      return {
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local", "share"),
        XDG_CACHE_HOME: join(home, ".cache"),
        XDG_STATE_HOME: join(home, ".local", "state"),
      };
    },
  },
  claude: {
    args: [],
    clientFs: true,
    // The default mode decides permissions itself; "default" makes it ask.
    sessionMode: "default",
    async configure({ twinUrl, home, model }) {
      return {
        ANTHROPIC_BASE_URL: twinUrl,
        ANTHROPIC_API_KEY: TWIN_API_KEY,
        ANTHROPIC_MODEL: model,
        ANTHROPIC_SMALL_FAST_MODEL: model,
        CLAUDE_CONFIG_DIR: join(home, ".claude"),
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // IS_SANDBOX must stay unset (or exactly "1"): any other value fails session/new as root.
      };
    },
  },
  codex: {
    args: [],
    clientFs: true,
    async configure({ twinUrl, home, model }) {
      const codexHome = join(home, ".codex");
      await writeConfig(
        join(codexHome, "config.toml"),
        [
          `model = ${JSON.stringify(model)}`,
          `model_provider = "twin"`,
          `approval_policy = "on-request"`,
          `sandbox_mode = "workspace-write"`,
          `check_for_update_on_startup = false`,
          `web_search = "disabled"`,
          ``,
          `[model_providers.twin]`,
          `name = "Model twin"`,
          `base_url = ${JSON.stringify(`${twinUrl}/v1`)}`,
          `env_key = "TWIN_API_KEY"`,
          `wire_api = "responses"`,
          ``,
          // Off: each of these reaches chatgpt.com or github.com at start-up (measured with strace).
          `[features]`,
          ...CODEX_NETWORK_FEATURES.map((feature) => `${feature} = false`),
          ``,
        ].join("\n"),
      );
      // Codex runs each command through its helper `codex-linux-sandbox`, which a system
      // bubblewrap older than 0.9 (no --argv0: Debian 12, Ubuntu 22.04) finds only through a
      // PATH link Codex makes in CODEX_HOME at start; it refuses to make it when CODEX_HOME is
      // inside the temp directory, as this throwaway home is, and every command then fails
      // before Codex reports a tool call. A temp directory of the home's own keeps CODEX_HOME
      // out of it, as a user's ~/.codex is.
      const tmp = join(home, "tmp");
      await mkdir(tmp, { recursive: true });
      return { CODEX_HOME: codexHome, TWIN_API_KEY, NO_BROWSER: "1", TMPDIR: tmp };
    },
  },
  gemini: {
    args: ["--acp"],
    // Its file-exists check mishandles a JSON-RPC error from the client, and write_file then fails.
    clientFs: false,
    async configure({ twinUrl, home, model }) {
      // Usage statistics would otherwise go to Google, the one call that leaves the machine.
      const settings = { privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false } };
      await writeConfig(join(home, ".gemini", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
      return { GEMINI_API_KEY: TWIN_API_KEY, GOOGLE_GEMINI_BASE_URL: twinUrl, GEMINI_MODEL: model, GEMINI_CLI_NO_RELAUNCH: "1" };
    },
  },
};

/** The model each agent is told to use: a name it accepts without looking it up. */
export const DEFAULT_MODELS: Record<AgentName, string> = {
  opencode: "twin-model",
  claude: "claude-sonnet-4-5",
  codex: "gpt-5-codex",
  gemini: "gemini-2.5-flash",
};

/**
 * Writes the agent's config into `input.home` and returns how to start it against the twin.
 *
 * @example
 * const launch = await agentLaunch("codex", { twinUrl: twin.url, home, model: DEFAULT_MODELS.codex });
 * spawn(launch.command, launch.args, { env: { ...isolatedEnv(home), ...launch.env } });
 */
export async function agentLaunch(agent: AgentName, input: ProfileInput): Promise<AgentLaunch> {
  const profile = PROFILES[agent];
  await mkdir(input.home, { recursive: true });
  return {
    agent,
    version: AGENT_PINS[agent].version,
    command: agentBinPath(agent),
    args: profile.args,
    env: await profile.configure(input),
    clientFs: profile.clientFs,
    ...(profile.sessionMode === undefined ? {} : { sessionMode: profile.sessionMode }),
  };
}

/**
 * The environment every agent starts from, built from scratch: nothing of the caller's leaks in
 * (no real keys, no proxies, no config folders). PATH is kept so node, git and sh are found.
 */
export function isolatedEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", LC_ALL: "C.UTF-8", TERM: "dumb" };
}
