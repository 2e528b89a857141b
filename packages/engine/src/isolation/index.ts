// What keeps Baton's own process out of its agents' reach; light enough for the CLI's entry point.
export { hideSecretEnvironment, type HiddenEnvironment } from "./environ-block.ts";
export { chooseAgentIsolation, isolatedCommand, type AgentIsolation, type AgentIsolationMode } from "./user-namespace.ts";
