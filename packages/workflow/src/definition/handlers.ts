import type { Handler } from "./schema.ts";

/** The dialect's shapes and the handler each selects (looked up case-insensitively). */
const SHAPE_HANDLERS: Readonly<Record<string, Handler>> = {
  mdiamond: "start",
  msquare: "exit",
  box: "agent",
  rect: "agent",
  rectangle: "agent",
  tab: "prompt",
  parallelogram: "command",
  hexagon: "human",
  diamond: "conditional",
  component: "parallel",
  tripleoctagon: "fan_in",
  insulator: "wait",
  house: "subworkflow",
};

/** `type=` values: Baton's handler names, and the dialect's names for the same handlers. */
const TYPE_HANDLERS: Readonly<Record<string, Handler>> = {
  start: "start",
  exit: "exit",
  agent: "agent",
  codergen: "agent",
  prompt: "prompt",
  command: "command",
  tool: "command",
  shell: "command",
  human: "human",
  "wait.human": "human",
  conditional: "conditional",
  parallel: "parallel",
  fan_in: "fan_in",
  "parallel.fan_in": "fan_in",
  wait: "wait",
  foreach: "foreach",
  subworkflow: "subworkflow",
  "stack.manager_loop": "subworkflow",
  validate: "validate",
  merge: "merge",
  pull_request: "pull_request",
  pr: "pull_request",
  subtasks: "subtasks",
};

/** The shape each handler is drawn with when the file gives none. */
export const HANDLER_SHAPES: Readonly<Record<Handler, string>> = {
  start: "Mdiamond",
  exit: "Msquare",
  agent: "box",
  prompt: "tab",
  command: "parallelogram",
  human: "hexagon",
  conditional: "diamond",
  parallel: "component",
  fan_in: "tripleoctagon",
  wait: "insulator",
  foreach: "box3d",
  subworkflow: "house",
  validate: "parallelogram",
  merge: "invhouse",
  pull_request: "invtrapezium",
  subtasks: "folder",
};

export const KNOWN_TYPES: readonly string[] = Object.keys(TYPE_HANDLERS);

export function handlerOfType(type: string): Handler | undefined {
  return TYPE_HANDLERS[type.toLowerCase()];
}

export function handlerOfShape(shape: string): Handler | undefined {
  return SHAPE_HANDLERS[shape.toLowerCase()];
}

/** Start and exit may be named by id alone: `start`/`Start`, `exit`/`Exit`/`end`/`End`. */
export function handlerOfId(id: string): Handler | undefined {
  const lower = id.toLowerCase();
  if (lower === "start") return "start";
  if (lower === "exit" || lower === "end") return "exit";
  return undefined;
}
