import { randomBytes } from "node:crypto";
import { leaveRequest, readRequest } from "../input/request-folder.ts";
import type { FieldValue } from "./form-fields.ts";

/** How a person answers a question: with the form filled (`accept`), or turning it down. */
export type ReplyAction = "accept" | "decline" | "cancel";

/** A person's answer to a question the agent asked, as `baton reply`, the API and the TUI leave it. */
export type PersonReply = {
  question: string;
  action: ReplyAction;
  /** The form's values (`accept` only), checked against its fields before the reply is left. */
  content?: Record<string, FieldValue>;
  reason?: string;
  /** Who answered: the OS user, or the name an API client gave. */
  who: string;
  via: "cli" | "api" | "web" | "terminal";
};

/** A fresh question id: `q_` and 12 hex digits. */
export function newQuestionId(): string {
  return `q_${randomBytes(6).toString("hex")}`;
}

/** The request file of a question's reply: one per question, so the first reply wins. */
export function replyFileName(question: string): string {
  return `question-${Buffer.from(question, "utf8").toString("base64url").slice(0, 160)}.json`;
}

/** Leaves a person's reply for the process running the run. `exists`: another reply came first (it stands). */
export function leaveReply(runDir: string, reply: PersonReply): Promise<"written" | "exists"> {
  return leaveRequest(runDir, replyFileName(reply.question), reply);
}

/** The reply left first for a question, if any: who gave it, for the message of the one that lost. */
export async function readReply(runDir: string, question: string): Promise<PersonReply | undefined> {
  const body = await readRequest(runDir, replyFileName(question));
  return body === undefined ? undefined : personReplyOf(body);
}

/** A reply read back from its file, or undefined when it is not one. Its content is checked again by the run. */
export function personReplyOf(body: Record<string, unknown>): PersonReply | undefined {
  const { question, action, content, reason, who, via } = body;
  if (typeof question !== "string" || (action !== "accept" && action !== "decline" && action !== "cancel")) return undefined;
  const reply: PersonReply = {
    question,
    action,
    who: typeof who === "string" && who !== "" ? who.slice(0, 200) : "unknown",
    via: via === "api" || via === "web" || via === "terminal" ? via : "cli",
  };
  if (action === "accept" && content !== null && typeof content === "object" && !Array.isArray(content)) reply.content = content as Record<string, FieldValue>;
  if (typeof reason === "string" && reason !== "") reply.reason = reason.slice(0, 2_000);
  return reply;
}
