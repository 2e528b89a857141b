import { DEFAULT_UPSTREAMS, type ProxyConfig } from "../config/proxy-config.ts";
import { isBatonError } from "../errors.ts";
import type { Upstream } from "./upstream-request.ts";
import type { InferenceProxy } from "./inference-proxy.ts";
import { readKey } from "./key-source.ts";
import { PROXY_PROVIDERS, type ProxyProvider } from "./wire-routes.ts";

/** The process's proxy, with the providers it has no key for (their requests answer 502) and why. */
export type ProcessProxy = { proxy: InferenceProxy; missing: Partial<Record<ProxyProvider, string>>; config: ProxyConfig };

const started = new Map<string, Promise<ProcessProxy>>();

/**
 * The one inference proxy of this process for a `[proxy]` config, started at the first call:
 * 127.0.0.1 on a free port, each provider's key read once from its source. A provider whose
 * source gives no key has no upstream; the reason is kept for the run that needs it.
 */
export function processInferenceProxy(config: ProxyConfig, env: Record<string, string | undefined>): Promise<ProcessProxy> {
  const id = JSON.stringify(config);
  let proxy = started.get(id);
  if (proxy === undefined) {
    proxy = startProxy(config, env);
    started.set(id, proxy);
    proxy.catch(() => started.delete(id));
  }
  return proxy;
}

async function startProxy(config: ProxyConfig, env: Record<string, string | undefined>): Promise<ProcessProxy> {
  const upstreams: Partial<Record<ProxyProvider, Upstream>> = {};
  const missing: Partial<Record<ProxyProvider, string>> = {};
  for (const provider of PROXY_PROVIDERS) {
    const upstream = config[provider];
    try {
      upstreams[provider] = { baseUrl: upstreamBaseUrl(config, provider, env), key: await readKey(upstream.key, env, provider) };
    } catch (error) {
      if (!isBatonError(error)) throw error;
      missing[provider] = error.toLine();
    }
  }
  // Loaded with the first proxy started: the proxy's parts cost every other command their start-up.
  const { InferenceProxy } = await import("./inference-proxy.ts");
  return { proxy: await InferenceProxy.start({ upstreams }), missing, config };
}

/** The variables `[proxy]` reads keys from: never given to an agent. */
export function keyVariables(config: ProxyConfig): string[] {
  return PROXY_PROVIDERS.flatMap((provider) => {
    const key = config[provider].key;
    return "env" in key && key.env !== undefined ? [key.env] : [];
  });
}

/**
 * A provider's upstream: `[proxy.<provider>] base_url`, else the provider's base-URL variable
 * in Baton's environment (a gateway the user already points agents at; OpenAI's may end in
 * `/v1`, which the agent's paths carry themselves), else its public API.
 */
export function upstreamBaseUrl(config: ProxyConfig, provider: ProxyProvider, env: Record<string, string | undefined>): string {
  const configured = config[provider].base_url;
  if (configured !== undefined) return provider === "openai" ? configured.replace(/\/v1\/?$/, "") : configured;
  const fromEnv = env[DEFAULT_UPSTREAMS[provider].env];
  if (fromEnv !== undefined && /^https?:\/\//.test(fromEnv)) return provider === "openai" ? fromEnv.replace(/\/v1\/?$/, "") : fromEnv;
  return DEFAULT_UPSTREAMS[provider].base_url;
}
