// @baton/testkit/model-twin: a loopback fake model provider for driving real agents without keys.
import { fileURLToPath } from "node:url";
export { DEFAULT_TWIN_MODELS, ModelTwin, startModelTwin } from "./model-twin.ts";
export type { ModelTwinOptions } from "./model-twin.ts";
export { DEFAULT_REPLY, FAULT_STATUSES, parseScenario, SCENARIO_NAMES, ScenarioError } from "./scenario.ts";
export type { Fault, FaultInput, Scenario, ScenarioInput, ScenarioName, Step } from "./scenario.ts";
export { AUXILIARY_REPLY } from "./conversation.ts";
export type { TwinRequestRecord } from "./request-log.ts";
export { SHELL_TOOL_NAMES, WRITE_TOOL_NAMES } from "./tool-choice.ts";
export type { ApiName } from "./wire/wire-api.ts";
/** Absolute path of the twin's executable script (its source in a checkout, its build when installed). */
export const modelTwinBinPath = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./bin.ts" : "./bin.js", import.meta.url));
