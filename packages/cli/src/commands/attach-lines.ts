import type { OpenQuestion } from "@baton/engine/input";
import { definedFields } from "@baton/protocol/core";

/** What a line typed into `baton attach` asks for. */
export type AttachLine =
  | { kind: "steer"; text: string }
  | { kind: "permission"; action: "allow" | "deny"; call?: string; alwaysForRun?: boolean; optionId?: string; reason?: string }
  | { kind: "gate"; decision: "approve" | "reject" | "answer"; value?: string; comment?: string }
  /** A reply to the agent's question that waits (the oldest): its form's values (`FIELD=VALUE …`), or a decline. */
  | { kind: "reply"; action: "accept" | "decline"; text: string }
  | { kind: "cancel" }
  | { kind: "detach" }
  | { kind: "help" }
  | { kind: "unknown"; word: string };

export const ATTACH_HELP = [
  "type a line to send it to the agent (baton steer); commands start with /:",
  "  /allow [CALL] [--option ID]   /always [CALL]   /deny [CALL] [REASON]   answer a permission question",
  "  /approve [COMMENT]   /reject [COMMENT]   /answer CHOICE               answer the gate the run waits at",
  "  /reply FIELD=VALUE …   /decline [REASON]                              answer the agent's question",
  "  /cancel   cancel the run        /detach (or Ctrl-C)   leave it running        /help",
].join("\n");

/**
 * Reads one typed line: a slash command, or text to steer the agent with. A permission answer
 * without a CALL is for the question that waits (the oldest, when several do); a word after
 * /allow or /always is a call id when one waits by that id.
 */
export function parseAttachLine(line: string, open: ReadonlyMap<string, OpenQuestion>): AttachLine | undefined {
  const trimmed = line.trim();
  if (trimmed === "") return undefined;
  if (!trimmed.startsWith("/")) return { kind: "steer", text: trimmed };
  const [command = "", ...rest] = trimmed.slice(1).split(/\s+/);
  const words = rest.join(" ");
  switch (command.toLowerCase()) {
    case "allow":
    case "always": {
      const args = [...rest];
      const optionAt = args.indexOf("--option");
      const optionId = optionAt >= 0 ? args.splice(optionAt, 2)[1] : undefined;
      const call = args[0] !== undefined && open.has(args[0]) ? args[0] : undefined;
      return { kind: "permission", action: "allow", ...definedFields({ call, optionId, alwaysForRun: command.toLowerCase() === "always" ? true : undefined }) };
    }
    case "deny": {
      const first = rest[0];
      const call = first !== undefined && open.has(first) ? first : undefined;
      const reason = (call === undefined ? rest : rest.slice(1)).join(" ");
      return { kind: "permission", action: "deny", ...definedFields({ call, reason: reason === "" ? undefined : reason }) };
    }
    case "approve":
    case "reject":
      return { kind: "gate", decision: command.toLowerCase() as "approve" | "reject", ...definedFields({ comment: words === "" ? undefined : words }) };
    case "answer":
      return { kind: "gate", decision: "answer", value: words };
    case "reply":
      return { kind: "reply", action: "accept", text: words };
    case "decline":
      return { kind: "reply", action: "decline", text: words };
    case "cancel":
      return { kind: "cancel" };
    case "detach":
    case "quit":
      return { kind: "detach" };
    case "help":
    case "?":
      return { kind: "help" };
    default:
      return { kind: "unknown", word: command };
  }
}

/** The question a permission answer without a call is for: the oldest one waiting. */
export function oldestQuestion(open: ReadonlyMap<string, OpenQuestion>): OpenQuestion | undefined {
  return open.values().next().value;
}
