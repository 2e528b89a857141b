import { BatonError } from "../errors.ts";
import type { GateOption } from "./workflow-router.ts";

/** A person's decision at a gate, as `baton approve|reject|answer`, the API or the web page give it. */
export type GateDecision = {
  kind: "approve" | "reject" | "answer";
  /** For `answer`: an option's label (or its accelerator key), or free text at a freeform gate. */
  value?: string | undefined;
  comment?: string | undefined;
  by: string;
  via: "cli" | "api" | "web" | "terminal" | "auto" | "timeout";
};

/** What a decision comes to at one gate: the option taken (routed by its label) or free text, and whether it approves. */
export type GateAnswer = { choice?: GateOption; text?: string; approved: boolean };

/** Words that mark an option as the way back (the one `baton reject` takes). */
const REJECT_WORDS = /\b(reject|rejected|revise|deny|denied|decline|no|back|redo|rework|fix|change|changes)\b/i;

/**
 * Matches a decision to a gate's options. `approve` takes the first option that is not a way
 * back; `reject` takes the first way back (or none: the gate fails closed); `answer` takes the
 * option whose label or key matches, case-insensitively, else free text at a freeform gate.
 * An answer that matches nothing at a gate that takes no free text is a usage error naming
 * the options: checked before anything is written.
 */
export function answerGate(options: readonly GateOption[], freeform: boolean, decision: GateDecision): GateAnswer {
  if (decision.kind === "approve") {
    const choice = options.find((option) => !REJECT_WORDS.test(option.label)) ?? options[0];
    return choice === undefined ? { approved: true } : { choice, approved: true };
  }
  if (decision.kind === "reject") {
    const choice = options.find((option) => REJECT_WORDS.test(option.label));
    return choice === undefined ? { approved: false } : { choice, approved: false };
  }
  const value = (decision.value ?? "").trim();
  const wanted = value.toLowerCase();
  const choice = options.find((option) => option.label.toLowerCase() === wanted || option.key?.toLowerCase() === wanted || option.to.toLowerCase() === wanted);
  if (choice !== undefined) return { choice, approved: !REJECT_WORDS.test(choice.label) };
  if (freeform && value !== "") return { text: value, approved: true };
  throw new BatonError("usage", `"${value}" is not an option of this gate`, {
    hint: options.length === 0 ? "this gate takes no answer; use baton approve or baton reject" : `answer one of: ${options.map((option) => (option.key === undefined ? option.label : `${option.label} (${option.key})`)).join(", ")}`,
  });
}
