// The agent's sandbox (`[sandbox] kind = "bwrap"`): see docs/sandbox.md.
export { prepareSandbox, sandboxedCommand, type AgentSandbox, type ProxyRelay } from "./prepare-sandbox.ts";
export { sandboxConfigSchema, SANDBOX_CONFIG_TEXT, type SandboxConfig } from "./sandbox-config.ts";
export { bwrapArgs, type SandboxPlan } from "./bwrap-args.ts";
export { planSandbox, programRoot } from "./sandbox-plan.ts";
