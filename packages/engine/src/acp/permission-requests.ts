import { definedFields } from "@baton/protocol/core";
import type { PermissionDecision } from "../permissions/permission-desk.ts";
import { asArray, asObject, asString, type JsonObject } from "./json-access.ts";
import type { MapperContext } from "./mapper-context.ts";
import { toolName } from "./update-fields.ts";

/** What `permission.resolved.rule` says when a request came in a turn Baton had cancelled. */
export const CANCELLED_TURN_RULE = "default:turn-cancelled";

type OpenRequest = { call: string; options: JsonObject[] };

/**
 * The agent's `session/request_permission` requests, paired with Baton's answers by JSON-RPC id:
 * `permission.requested` as a request comes, `permission.resolved` (with the rule that decided)
 * as its answer goes out.
 */
export class PermissionRequests {
  readonly #context: MapperContext;
  /** The tool of a call that is running, for a request that does not name its own. */
  readonly #toolOf: (call: string) => string | undefined;
  /** What `permission.requested` says of a request besides the call: whether it waits for a person. */
  readonly #describe: ((toolCall: JsonObject) => JsonObject) | undefined;
  readonly #open = new Map<string, OpenRequest>();
  /** Decisions keyed by tool call id, filled by the permission handler before it answers. */
  readonly decisions = new Map<string, PermissionDecision>();

  constructor(context: MapperContext, options: { toolOf: (call: string) => string | undefined; describe?: ((toolCall: JsonObject) => JsonObject) | undefined }) {
    this.#context = context;
    this.#toolOf = options.toolOf;
    this.#describe = options.describe;
  }

  /** Whether the request with JSON-RPC id `key` waits for its answer. */
  isOpen(key: string): boolean {
    return this.#open.has(key);
  }

  /** The agent asked, in request `key`. */
  requested(key: string, params: JsonObject): void {
    const toolCall = asObject(params["toolCall"]) ?? {};
    const call = asString(toolCall["toolCallId"]) ?? key;
    const options = asArray(params["options"]).flatMap((o) => (asObject(o) ? [asObject(o) as JsonObject] : []));
    this.#open.set(key, { call, options });
    this.#context.sink.append("permission.requested", {
      session: this.#context.session(),
      call,
      tool: this.#toolOf(call) ?? toolName(toolCall, asString(toolCall["kind"]) ?? "other"),
      options: options.map((o) => ({ id: asString(o["optionId"]) ?? "", kind: asString(o["kind"]) ?? "", name: asString(o["name"]) ?? "" })),
      ...this.#describe?.(toolCall),
    });
  }

  /** Baton's answer `msg` to request `key` went out. */
  answered(key: string, msg: JsonObject): void {
    const request = this.#open.get(key);
    this.#open.delete(key);
    if (!request) return;
    const outcome = asObject(asObject(msg["result"])?.["outcome"]);
    const optionId = asString(outcome?.["optionId"]);
    const chosen = request.options.find((o) => o["optionId"] === optionId);
    const decision = this.decisions.get(request.call) ?? { rule: "unknown", by: "policy" as const };
    this.decisions.delete(request.call);
    const data: JsonObject = {
      session: this.#context.session(),
      call: request.call,
      decision: msg["error"] !== undefined ? "error" : (asString(chosen?.["kind"]) ?? asString(outcome?.["outcome"]) ?? "unknown"),
      by: decision.by,
      rule: decision.rule,
      ...definedFields({ who: decision.who, reason: decision.reason, always_for_run: decision.alwaysForRun }),
    };
    if (optionId !== undefined) data["option_id"] = optionId;
    this.#context.sink.append("permission.resolved", data);
  }

  /**
   * A turn that ends cancelled takes its open permission questions with it: ACP has the client
   * answer each `cancelled`, and Baton does (its handler answers every request of a cancelling
   * turn so). The agent may end the turn before that answer is on the wire; the log still says
   * the question ended first, so a reader sees the call refused inside its turn.
   */
  cancelOpen(): void {
    for (const [key, request] of this.#open) {
      this.#open.delete(key);
      this.decisions.delete(request.call);
      this.#context.sink.append("permission.resolved", { session: this.#context.session(), call: request.call, decision: "cancelled", by: "policy", rule: CANCELLED_TURN_RULE });
    }
  }
}
