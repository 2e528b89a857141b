import { definedFields } from "@baton/protocol/core";
import { permissionQuestion } from "./permission-question.ts";
import type { PermissionAsker } from "./permission-asker.ts";
import { chooseOption, configuredDecision, decidePermission, type PermissionQuestion, type PermissionRule } from "./policy.ts";

type ToolCallLike = Parameters<typeof permissionQuestion>[0] & { toolCallId: string };
type OptionLike = { optionId: string; kind: string };

/** Who decided a permission request, as `permission.resolved` records it. */
export type PermissionDecision = { rule: string; by: "policy" | "human"; who?: string; reason?: string; alwaysForRun?: boolean };

/** The answer to the agent (an option, or none: `cancelled`) and who decided it. */
export type DeskAnswer = { optionId: string | undefined; decision: PermissionDecision };

/** `permission.resolved.rule` for a question nobody answered in time: denied. */
export const ASK_TIMEOUT_RULE = "ask:timeout";
/** `permission.resolved.rule` for a question asked where no person can answer: denied. */
export const ASK_UNANSWERABLE_RULE = "ask:no-person";
/** `permission.resolved.rule` for a question answered by an earlier `--always-for-run`. */
export const ASK_ALWAYS_RULE = "ask:always-for-run";

/**
 * Answers the agent's permission requests: the policy's rules decide, and where a rule says
 * `ask` a person does (through the run's asker), within its timeout, else the call is denied:
 * fail closed. `describe` says what `permission.requested` records of the question.
 */
export class PermissionDesk {
  readonly #rules: readonly PermissionRule[];
  readonly #builtinRules: boolean;
  readonly #root: string;
  readonly #asker: PermissionAsker | undefined;

  constructor(options: { rules: readonly PermissionRule[]; builtinRules: boolean; root: string; asker?: PermissionAsker | undefined }) {
    this.#rules = options.rules;
    this.#builtinRules = options.builtinRules;
    this.#root = options.root;
    this.#asker = options.asker;
  }

  /** Fields for `permission.requested`: whether it awaits a person, by which rule, for how long. */
  describe(toolCall: Parameters<typeof permissionQuestion>[0]): Record<string, unknown> {
    const question = permissionQuestion(toolCall, this.#root);
    // Only a user's rule asks a person (the built-in ones deny): no need to walk the paths here.
    const decision = configuredDecision(this.#rules, question);
    if (decision?.action !== "ask" || this.#asker === undefined || this.#asker.remembered(question) !== undefined) return {};
    const timeoutMs = this.#asker.timeoutMs;
    return definedFields({ awaiting: "person", rule: decision.rule, timeout_ms: timeoutMs });
  }

  /**
   * The answer the policy gives at once (a rule, no person able to answer, or a person's
   * standing "always for this run"), or undefined where a person must be asked.
   */
  decideNow(toolCall: ToolCallLike, options: readonly OptionLike[]): DeskAnswer | undefined {
    const ruling = this.#rule(toolCall, options);
    return "answer" in ruling ? ruling.answer : undefined;
  }

  /** Decides one request; a question for a person waits for them, its turn's cancel, or its timeout. */
  async answer(toolCall: ToolCallLike, options: readonly OptionLike[], cancelled: Promise<void>): Promise<DeskAnswer> {
    const ruling = this.#rule(toolCall, options);
    if ("answer" in ruling) return ruling.answer;
    const { asker, question, rule } = ruling;
    const verdict = await asker.ask(toolCall.toolCallId, question, cancelled);
    if (verdict.kind === "cancelled") return { optionId: undefined, decision: { rule, by: "policy" } };
    if (verdict.kind === "timeout") return { optionId: chooseOption(options, "deny"), decision: { rule: ASK_TIMEOUT_RULE, by: "policy", reason: "nobody answered in time" } };
    const { answer } = verdict;
    const chosen = answer.optionId !== undefined && options.some((option) => option.optionId === answer.optionId) ? answer.optionId : undefined;
    const preferred = answer.action === "allow" && answer.alwaysForRun === true ? (options.find((option) => option.kind === "allow_always")?.optionId ?? chooseOption(options, "allow")) : chooseOption(options, answer.action);
    return {
      optionId: chosen ?? preferred,
      decision: definedFields({ rule, by: "human" as const, who: answer.who, reason: answer.reason, alwaysForRun: answer.alwaysForRun === true ? true : undefined }),
    };
  }

  /** The answer without a person, or the question a person must be asked (by which rule, through which asker). */
  #rule(toolCall: ToolCallLike, options: readonly OptionLike[]): { answer: DeskAnswer } | { asker: PermissionAsker; question: PermissionQuestion; rule: string } {
    const question = permissionQuestion(toolCall, this.#root);
    const decision = this.#decide(question);
    if (decision.action !== "ask") return { answer: { optionId: chooseOption(options, decision.action), decision: { rule: decision.rule, by: "policy" } } };
    const asker = this.#asker;
    if (asker === undefined) return { answer: { optionId: chooseOption(options, "deny"), decision: { rule: ASK_UNANSWERABLE_RULE, by: "policy" } } };
    const standing = asker.remembered(question);
    if (standing !== undefined) return { answer: { optionId: chooseOption(options, "allow"), decision: { rule: ASK_ALWAYS_RULE, by: "human", who: standing.who } } };
    return { asker, question, rule: decision.rule };
  }

  #decide(question: ReturnType<typeof permissionQuestion>) {
    return decidePermission(this.#rules, question, { root: this.#root, builtinRules: this.#builtinRules });
  }
}
