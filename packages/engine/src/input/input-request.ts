import { randomBytes } from "node:crypto";
import { leaveRequest } from "./request-folder.ts";

/** A person's text for a running agent, as `baton steer` and the API leave it. */
export type InputRequest = { id: string; by: string; text: string };

/** A fresh input id: `in_` and 12 hex digits. */
export function newInputId(): string {
  return `in_${randomBytes(6).toString("hex")}`;
}

/** Leaves an input for the process running the run; the run records `input.queued` or `input.rejected` with its id. */
export async function requestInput(runDir: string, request: InputRequest): Promise<void> {
  await leaveRequest(runDir, `input-${request.id}.json`, request);
}

/** An input request read back from its file, or undefined when it is not one. */
export function inputRequestOf(body: Record<string, unknown>): InputRequest | undefined {
  const { id, by, text } = body;
  if (typeof id !== "string" || !/^in_[A-Za-z0-9_-]{1,60}$/.test(id) || typeof text !== "string") return undefined;
  return { id, by: typeof by === "string" && by !== "" ? by.slice(0, 200) : "unknown", text };
}
