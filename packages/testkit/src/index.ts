// @baton/testkit: test fixtures that are real programs. The scripted fake ACP agent plays a
// JSON script over stdio through the ACP SDK's agent side, so tests, the demo and benchmarks
// drive it through exactly the code path real agents take.
export { fakeAgentBinPath, fakeAgentCommand } from "./fake-agent/command.ts";
export { demoScript, demoScriptPath } from "./fake-agent/demo-script.ts";
export { createFakeAgent, FAKE_AGENT_NAME, FAKE_AGENT_VERSION } from "./fake-agent/fake-agent.ts";
export type { FakeAgentOptions } from "./fake-agent/fake-agent.ts";
export {
  loadScript,
  parseScript,
  scriptSchema,
  stepNames,
  stepSchema,
  validateScript,
} from "./fake-agent/script.ts";
export type { Script, ScriptInput, Step, StepName } from "./fake-agent/script.ts";
