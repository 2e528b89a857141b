import { BUILTIN_AGENTS, buildRegistry, type AgentRegistry } from "@baton/engine/agents";
import type { BatonConfig } from "@baton/engine/config";
import { fakeAgentEntry } from "@baton/testkit/launch";

/** Every agent `baton run` and `baton agents` know: the built-ins, the fake agent, and the project's `[agents.*]`. */
export function agentRegistry(config: BatonConfig): AgentRegistry {
  return buildRegistry({ ...BUILTIN_AGENTS, fake: fakeAgentEntry }, config.agents ?? {});
}
