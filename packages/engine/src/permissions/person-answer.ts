import { leaveRequest, readRequest } from "../input/request-folder.ts";

/** A person's answer to a permission question, as `baton allow|deny` and the API leave it. */
export type PersonAnswer = {
  call: string;
  action: "allow" | "deny";
  /** An option the agent offered, chosen by id (its kind must fit `action`). */
  optionId?: string;
  /** Allow calls asking the same again (same kind and target) for the rest of the run. */
  alwaysForRun?: boolean;
  reason?: string;
  /** Who answered: the OS user, or the name an API client gave. */
  who: string;
  via: "cli" | "api" | "web" | "terminal";
};

/** The request file of a call's answer: one per call, so the first answer wins. */
export function answerFileName(call: string): string {
  return `permission-${Buffer.from(call, "utf8").toString("base64url").slice(0, 160)}.json`;
}

/**
 * Leaves a person's answer for the process running the run. `exists`: another answer to the
 * same call came first (it stands; this one changed nothing).
 */
export function leaveAnswer(runDir: string, answer: PersonAnswer): Promise<"written" | "exists"> {
  return leaveRequest(runDir, answerFileName(answer.call), answer);
}

/** The answer left first for a call, if any: who gave it, for the message of the one that lost. */
export async function readAnswer(runDir: string, call: string): Promise<PersonAnswer | undefined> {
  const body = await readRequest(runDir, answerFileName(call));
  return body === undefined ? undefined : personAnswerOf(body);
}

/** An answer read back from its file, or undefined when it is not one. */
export function personAnswerOf(body: Record<string, unknown>): PersonAnswer | undefined {
  const { call, action, optionId, alwaysForRun, reason, who, via } = body;
  if (typeof call !== "string" || (action !== "allow" && action !== "deny")) return undefined;
  const answer: PersonAnswer = {
    call,
    action,
    who: typeof who === "string" && who !== "" ? who.slice(0, 200) : "unknown",
    via: via === "api" || via === "web" || via === "terminal" ? via : "cli",
  };
  if (typeof optionId === "string") answer.optionId = optionId;
  if (alwaysForRun === true) answer.alwaysForRun = true;
  if (typeof reason === "string" && reason !== "") answer.reason = reason.slice(0, 2_000);
  return answer;
}
