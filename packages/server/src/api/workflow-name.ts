import { apiError } from "../http/api-errors.ts";
import { printable } from "./params.ts";

/**
 * A workflow name as `baton run --workflow` finds it in `.baton/workflows/` (or the built-in
 * `single`): letters, digits, `_ . -`, no slash and no `.dot`/`.fabro` ending, so the CLI never
 * takes it for a path. A run started through the API walks only the project's own workflows.
 */
const WORKFLOW_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const PATH_ENDING = /\.(dot|fabro)$/i;

export function workflowField(body: Record<string, unknown>): string | undefined {
  const value = body["workflow"];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !WORKFLOW_NAME.test(value) || PATH_ENDING.test(value)) {
    const shown = typeof value === "string" ? `"${printable(value)}"` : "it";
    throw apiError("bad_request", `"workflow": ${shown} is not a workflow name`, "name a workflow of .baton/workflows/ without its extension (or single); paths are not taken");
  }
  return value;
}
