import type { ProxyWiring } from "../agents/proxy-wiring.ts";
import type { ProxyConfig } from "../config/proxy-config.ts";
import { BatonError } from "../errors.ts";
import { keyVariables, processInferenceProxy } from "../proxy/process-proxy.ts";
import type { ProxyProvider } from "../proxy/wire-routes.ts";
import type { RunProxySettings } from "./run-proxy.ts";

/** The upstreams an agent's wiring needs: one for `env`, OpenAI's for Codex, any for OpenCode. */
function neededProviders(wiring: ProxyWiring): ProxyProvider[] | "any" {
  if (wiring.via === "env") return [wiring.provider];
  if (wiring.via === "codex") return ["openai"];
  return "any";
}

/**
 * The proxy a run's agent goes through, started once per process: undefined when `[proxy]` is
 * off or the agent's entry has no way to take a base URL (`proxy = { via = "none" }`).
 *
 * @throws BatonError `proxy_key_missing` before the run exists when no key is found for the
 *   upstream the agent needs.
 */
export async function proxySettingsFor(config: ProxyConfig, env: Record<string, string | undefined>, agent: { name: string; proxy: ProxyWiring }): Promise<RunProxySettings | undefined> {
  if (!config.enabled || agent.proxy.via === "none") return undefined;
  const { proxy, missing } = await processInferenceProxy(config, env);
  const needed = neededProviders(agent.proxy);
  const lacking = needed === "any" ? (Object.keys(missing).length === 3 ? (["anthropic", "openai", "gemini"] as const) : []) : needed.filter((provider) => missing[provider] !== undefined);
  const first = lacking[0];
  if (first !== undefined) {
    throw new BatonError("proxy_key_missing", `agent "${agent.name}" reaches its model through Baton's inference proxy, and ${missing[first] ?? `there is no key for ${first}`}`, {
      hint: "or turn the proxy off with enabled = false under [proxy] in .baton/config.toml (the agent then gets the key itself)",
    });
  }
  return { proxy, keyVariables: keyVariables(config), prices: config.prices, defaultMaxOutputTokens: config.default_max_output_tokens };
}
