import type { Envelope } from "@baton/protocol/core";

/**
 * What went wrong in a run and what Baton did about it, counted from its events: the facts
 * `baton show` adds to the run-state fold (which keeps only the outcome: `stopped_by`,
 * `provider_error`).
 */
export type RunReliability = {
  /** `provider.error` events: turns that failed on the model provider. */
  provider_errors: number;
  /** Their classes, each once, in the order first seen. */
  provider_error_classes: string[];
  /** `retry.scheduled`: turns sent again after a provider error. */
  retries: number;
  /** `model.switched`: switches to the fallback model. */
  model_switches: number;
  /** `stall.detected`: turns in which nothing came from the agent for too long. */
  stalls: number;
  /** `repeat.detected`: times the agent was found making the same tool call again and again. */
  repeats: number;
  /** `limit.warning`: marks of a limit passed (60%, 80%). */
  limit_warnings: number;
  /** The first `handback.requested`: why the agent was asked to hand back its work. */
  handback?: { reason: string; limit?: string; class?: string };
  /** From `run.completed`: whether the agent answered the hand-back with a turn that ended well. */
  handed_back?: boolean;
};

export function initialReliability(): RunReliability {
  return { provider_errors: 0, provider_error_classes: [], retries: 0, model_switches: 0, stalls: 0, repeats: 0, limit_warnings: 0 };
}

/** Adds one event to `facts` in place; any other event, and malformed data, change nothing. */
export function applyReliability(facts: RunReliability, event: Envelope): void {
  const data: Record<string, unknown> = typeof event.data === "object" && event.data !== null ? event.data : {};
  switch (event.type) {
    case "provider.error": {
      facts.provider_errors += 1;
      const kind = str(data["class"]) ?? "other";
      if (!facts.provider_error_classes.includes(kind)) facts.provider_error_classes.push(kind);
      return;
    }
    case "retry.scheduled":
      facts.retries += 1;
      return;
    case "model.switched":
      facts.model_switches += 1;
      return;
    case "stall.detected":
      facts.stalls += 1;
      return;
    case "repeat.detected":
      facts.repeats += 1;
      return;
    case "limit.warning":
      facts.limit_warnings += 1;
      return;
    case "handback.requested":
      facts.handback ??= withDefined({ reason: str(data["reason"]) ?? "?", limit: str(data["limit"]), class: str(data["class"]) });
      return;
    case "run.completed":
      if (typeof data["handed_back"] === "boolean") facts.handed_back = data["handed_back"];
      return;
    default:
      return;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Drops undefined fields, so the JSON of `show --json` has no keys without values. */
function withDefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
