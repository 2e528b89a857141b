import { definedFields } from "@baton/protocol/core";
import type { AgentCommand } from "../acp/agent-process.ts";
import { proxiedEnv, type ProxyWiring } from "../agents/proxy-wiring.ts";
import type { RunLimits } from "../conduct/limits.ts";
import type { InferenceProxy } from "../proxy/inference-proxy.ts";
import type { ModelPrice } from "../proxy/pricing.ts";
import type { RunGrant } from "../proxy/run-grant.ts";
import type { Redactor } from "../redaction/redactor.ts";
import type { ProxyRelay } from "../sandbox/prepare-sandbox.ts";

/** The process's inference proxy as a run uses it: the proxy, and the `[proxy]` settings a grant needs. */
export type RunProxySettings = {
  proxy: InferenceProxy;
  /** Variables `[proxy]` reads keys from: removed from the agent's environment too. */
  keyVariables: readonly string[];
  prices?: Readonly<Record<string, ModelPrice>>;
  defaultMaxOutputTokens?: number;
};

type Command = Omit<AgentCommand, "cwd">;

/**
 * A run attempt's use of the proxy: its grant, the redactor that hides its token, `wire` to
 * point an agent's command at the proxy as its entry says (unchanged for `none`), and `close`
 * to revoke the token (401 from then on) and cut calls still open.
 */
export type RunProxy = {
  grant: RunGrant;
  redactor: Redactor;
  wire: (command: Command, wiring: ProxyWiring | undefined) => Command;
  /** The proxy's port and unix socket, for a sandboxed agent's relay (the socket is made at the first call). */
  relay: () => Promise<ProxyRelay>;
  close: () => void;
};

/**
 * Issues a run attempt's grant: its token, admitted against the run's request cap, token and
 * cost budgets. Undefined when the run has no proxy. `emit` appends the proxy's events to the run.
 */
export function openRunProxy(settings: RunProxySettings | undefined, run: { limits: RunLimits; redactor: Redactor; emit: (type: string, data: Record<string, unknown>) => void }): RunProxy | undefined {
  if (settings === undefined) return undefined;
  const { proxy } = settings;
  const { limits } = run;
  const grant = proxy.issue({
    limits: definedFields({ maxRequests: limits.requests, tokens: limits.tokens, costUsd: limits.costUsd }),
    emit: run.emit,
    ...definedFields({ prices: settings.prices, defaultMaxOutputTokens: settings.defaultMaxOutputTokens }),
  });
  const access = { baseUrl: proxy.baseUrl.bind(proxy), token: grant.token };
  return {
    grant,
    redactor: run.redactor.with([grant.token]),
    wire: (command, wiring) => (wiring === undefined || wiring.via === "none" ? command : { ...command, env: proxiedEnv(command.env, wiring, access, settings.keyVariables) }),
    relay: async () => ({ port: proxy.port, socket: await proxy.unixSocket() }),
    close: () => proxy.revoke(grant),
  };
}
