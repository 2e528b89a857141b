import * as acp from "@agentclientprotocol/sdk";

/** An error as one line: a JSON-RPC error with its code, anything else by its message. */
export function errorText(error: unknown): string {
  if (error instanceof acp.RequestError) return `${error.message} (JSON-RPC ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
