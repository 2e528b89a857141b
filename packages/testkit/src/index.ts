// @baton/testkit: test fixtures that are real programs. The scripted fake ACP agent plays a
// JSON script over stdio through the ACP SDK's agent side, so tests, the demo and benchmarks
// drive it through exactly the code path real agents take.
export * from "./launch.ts";
export { createFakeAgent, FAKE_AGENT_NAME, FAKE_AGENT_VERSION } from "./fake-agent/fake-agent.ts";
export type { FakeAgentOptions } from "./fake-agent/fake-agent.ts";
