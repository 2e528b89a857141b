/**
 * @baton/engine/agents: the agent registry and how an agent is started, without the ACP
 * session machinery (for commands that check or resolve agents before they run one).
 */
export { buildRegistry, findAgent, type AgentRegistry } from "./registry.ts";
export { BUILTIN_AGENTS } from "./builtin-agents.ts";
export { prepareAgentLaunch, describeModelChoice, describeProxyWiring, envNamesOf, type AgentLaunch, type SessionSetup } from "./agent-launch.ts";
export type { AgentEntry, AgentEntryInput, AgentConfig, ModelChoice } from "./agent-entry.ts";
