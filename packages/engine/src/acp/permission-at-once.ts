import * as acp from "@agentclientprotocol/sdk";
import { asObject, asString, type JsonObject } from "./json-access.ts";

const OPTION_KINDS: ReadonlySet<string> = new Set(["allow_once", "allow_always", "reject_once", "reject_always"]);

type Option = { optionId: string; name: string; kind: string };
type ToolCall = { toolCallId: string; kind?: string | null; rawInput?: unknown; locations?: Array<{ path: string }> | null };

/** A permission request whose every field Baton reads is well formed. */
export type PermissionRequest = { id: string | number; toolCall: ToolCall; options: Option[] };

/**
 * The permission request in `message` when the fields Baton decides on are well formed: its
 * id, the tool call (its id, kind, locations) and the options. Anything else (another method,
 * a field of the wrong type) is undefined: the SDK then validates the request whole and answers
 * it, with an error where it is malformed.
 */
export function wellFormedPermissionRequest(message: unknown): PermissionRequest | undefined {
  const msg = asObject(message);
  if (msg?.["method"] !== acp.methods.client.session.requestPermission) return undefined;
  const id = msg["id"];
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const params = asObject(msg["params"]);
  if (typeof params?.["sessionId"] !== "string") return undefined;
  const toolCall = asObject(params["toolCall"]);
  const options = params["options"];
  if (toolCall === undefined || typeof toolCall["toolCallId"] !== "string" || !Array.isArray(options)) return undefined;
  if (!optionalOf(toolCall["kind"], (kind) => typeof kind === "string")) return undefined;
  if (!optionalOf(toolCall["locations"], (locations) => Array.isArray(locations) && locations.every((location) => typeof asObject(location)?.["path"] === "string"))) return undefined;
  if (!options.every(isOption)) return undefined;
  return { id, toolCall: toolCall as ToolCall, options: options as Option[] };
}

/** The JSON-RPC answer to request `id`: the option chosen, or `cancelled` when there is none. */
export function permissionAnswerLine(id: string | number, optionId: string | undefined): string {
  const outcome: JsonObject = optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId };
  return JSON.stringify({ jsonrpc: "2.0", id, result: { outcome } });
}

function optionalOf(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}

function isOption(value: unknown): boolean {
  const option = asObject(value);
  return typeof option?.["optionId"] === "string" && typeof option["name"] === "string" && OPTION_KINDS.has(asString(option["kind"]) ?? "");
}
