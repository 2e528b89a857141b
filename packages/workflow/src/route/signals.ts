import { definedFields } from "@baton/protocol/core";
import { outcomeNamed, type Outcome } from "../condition/ast.ts";

/** What an agent said about where to go next, read from its final message. */
export type RoutingSignals = {
  outcome?: Outcome;
  preferredLabel?: string;
  suggestedNextIds?: string[];
  contextUpdates?: Record<string, unknown>;
  /** Fields that were there but could not be used (a wrong type, an unknown outcome). */
  problems: string[];
};

const SIGNAL_KEYS = ["outcome", "preferred_label", "preferred_next_label", "suggested_next_ids", "context_updates"];

/**
 * Reads routing signals from the last JSON object in `text` that has one of the signal keys
 * (`preferred_label` or `preferred_next_label`, `suggested_next_ids`, `context_updates`,
 * `outcome`), whether it stands in prose or in a ```json fence. Objects nested in another are
 * part of it, not candidates of their own. Undefined when there is no such object.
 *
 * @example extractRoutingSignals('Done.\n```json\n{"preferred_next_label": "fix"}\n```') // { preferredLabel: "fix", problems: [] }
 */
export function extractRoutingSignals(text: string): RoutingSignals | undefined {
  let found: Record<string, unknown> | undefined;
  for (const object of topLevelObjects(text)) if (SIGNAL_KEYS.some((key) => Object.hasOwn(object, key))) found = object;
  if (found === undefined) return undefined;

  const problems: string[] = [];
  const label = found.preferred_label ?? found.preferred_next_label;
  if (label !== undefined && typeof label !== "string") problems.push("preferred_label is not a string");
  let suggested = found.suggested_next_ids;
  if (typeof suggested === "string") suggested = [suggested];
  if (suggested !== undefined && !(Array.isArray(suggested) && suggested.every((id) => typeof id === "string"))) {
    problems.push("suggested_next_ids is not a list of stage ids");
    suggested = undefined;
  }
  const updates = found.context_updates;
  const updatesOk = typeof updates === "object" && updates !== null && !Array.isArray(updates);
  if (updates !== undefined && !updatesOk) problems.push("context_updates is not an object");
  const outcome = typeof found.outcome === "string" ? outcomeNamed(found.outcome) : undefined;
  if (found.outcome !== undefined && outcome === undefined) problems.push(`outcome ${JSON.stringify(found.outcome)} is not succeeded, failed, partially_succeeded or skipped`);

  return {
    ...definedFields({
      outcome,
      preferredLabel: typeof label === "string" ? label : undefined,
      suggestedNextIds: suggested as string[] | undefined,
      contextUpdates: updatesOk ? (updates as Record<string, unknown>) : undefined,
    }),
    problems,
  };
}

/** Every JSON object in the text that is not inside another, in order. */
function* topLevelObjects(text: string): Generator<Record<string, unknown>> {
  let at = text.indexOf("{");
  while (at >= 0) {
    const end = objectEnd(text, at);
    if (end !== undefined) {
      try {
        const value: unknown = JSON.parse(text.slice(at, end));
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          yield value as Record<string, unknown>;
          at = text.indexOf("{", end);
          continue;
        }
      } catch {
        // Braces in prose or code that are not JSON: look at the next one.
      }
    }
    at = text.indexOf("{", at + 1);
  }
}

/** The index after the `}` that closes the `{` at `start`, counting braces outside JSON strings. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return undefined;
}
