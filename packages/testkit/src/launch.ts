// What a host needs to start the fake agent (its command, its scripts) without loading the
// agent itself and its copy of the ACP SDK: the CLI imports this, not the package index. The
// demo script (validated as it loads) is `@baton/testkit/demo`, for the command that plays it.
export { fakeAgentBinPath, fakeAgentCommand, fakeAgentEntry } from "./fake-agent/command.ts";
export { FAKE_DEFAULT_MODEL, FAKE_MODEL_ENV } from "./fake-agent/bin-args.ts";
export { loadScript, parseScript, scriptSchema, validateScript } from "./fake-agent/script.ts";
export { MAX_REPEAT_TIMES, stepNames, stepSchema } from "./fake-agent/step-schema.ts";
export type { Script, ScriptInput } from "./fake-agent/script.ts";
export type { PlayableStep, Step, StepName } from "./fake-agent/step-schema.ts";
