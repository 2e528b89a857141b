import type { Envelope } from "@baton/protocol";

/** Tools agents show as a plan (`plan.updated`), not as a tool call. */
const PLAN_TOOLS = new Set(["TodoWrite", "todowrite", "todoread", "update_plan", "write_todos"]);

/**
 * Compares, turn by turn, the tool calls the model asked for (seen at the inference proxy, in
 * `model.request.completed`) with the tool calls the agent reported over ACP (`tool.started`).
 * A turn that ends well with fewer reported than asked for is a warning: the agent may have run
 * a command it did not report (Codex does when its own sandbox cannot run one), so the run's
 * record would claim less, or other, work than was done.
 */
export class UnreportedToolWatch {
  #asked: string[] = [];
  #reported = 0;

  /** For each appended event; returns the warning's `log` data when a turn ended with calls unreported. */
  onEvent(event: Envelope): Record<string, unknown> | undefined {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case "turn.started":
        if (data["reason"] !== "notice") this.#asked = [];
        if (data["reason"] !== "notice") this.#reported = 0;
        return undefined;
      case "model.request.completed":
        if (data["status"] === 200 && Array.isArray(data["tool_calls"])) {
          this.#asked.push(...(data["tool_calls"] as unknown[]).filter((name): name is string => typeof name === "string" && !PLAN_TOOLS.has(name)));
        }
        return undefined;
      case "tool.started":
        this.#reported += 1;
        return undefined;
      case "turn.completed": {
        const asked = this.#asked;
        const reported = this.#reported;
        this.#asked = [];
        this.#reported = 0;
        if (data["stop_reason"] !== "end_turn" || asked.length <= reported) return undefined;
        return {
          level: "warn",
          code: "unreported_tool_calls",
          message: `in turn ${String(data["turn"])} the model asked for ${asked.length} tool call(s) (${[...new Set(asked)].join(", ")}) and the agent reported ${reported} over ACP: work may have been done that the run does not show`,
        };
      }
      default:
        return undefined;
    }
  }
}
