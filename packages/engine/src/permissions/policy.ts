import { z } from "zod";
import { askedQuestion, BUILTIN_RULES, type PolicyContext } from "./builtin-rules.ts";

export const permissionRuleSchema = z.strictObject({
  name: z.string().min(1),
  /** `ask`: a person answers (`baton allow|deny`, the API), within `[permissions] ask_timeout`, else denied. */
  action: z.enum(["allow", "deny", "ask"]),
  /** ACP tool kind to match (read, edit, delete, move, search, execute, think, fetch, other). */
  kind: z.string().optional(),
  /** A glob (`*` any text, `?` one character) matched against the command or the path. */
  pattern: z.string().optional(),
});
export type PermissionRule = z.infer<typeof permissionRuleSchema>;

/**
 * What the policy is asked about: the tool call as the agent described it. `target` is the
 * command, or the first path (relative to the workspace when inside it); `paths` are every
 * path the call names, as the agent gave them.
 */
export type PermissionQuestion = { kind: string; target?: string; paths?: readonly string[] };
export type PolicyDecision = { action: "allow" | "deny" | "ask"; rule: string };
export type { PolicyContext } from "./builtin-rules.ts";

/** The rule that decides when neither a configured rule nor a built-in one matches. */
export const DEFAULT_RULE: PolicyDecision = { action: "allow", rule: "default:allow" };

/**
 * The user's rules first (the first match decides), then the built-in ones unless turned off
 * (no `git push`; no edit, delete or move outside the workspace, in Baton's `.baton/` or in a
 * `.git/`), then allow once.
 *
 * @example decidePermission([], { kind: "execute", target: "git push" }, { root: "/repo" }) // => { action: "deny", rule: "default:no-git-push" }
 */
export function decidePermission(rules: readonly PermissionRule[], question: PermissionQuestion, context: PolicyContext = {}): PolicyDecision {
  const configured = configuredDecision(rules, question);
  if (configured !== undefined) return configured;
  if (context.builtinRules !== false) {
    const asked = askedQuestion(question, context);
    for (const rule of BUILTIN_RULES) {
      if (rule.matches(asked)) return { action: "deny", rule: rule.name };
    }
  }
  return DEFAULT_RULE;
}

/**
 * What the user's rules alone decide (the first that matches), undefined when none matches. The
 * built-in rules only ever deny, so whether a question goes to a person is known from this,
 * without looking at the file system.
 */
export function configuredDecision(rules: readonly PermissionRule[], question: PermissionQuestion): PolicyDecision | undefined {
  for (const rule of rules) {
    if (rule.kind !== undefined && rule.kind !== question.kind) continue;
    if (rule.pattern !== undefined && !globMatches(rule.pattern, question.target ?? "")) continue;
    return { action: rule.action, rule: rule.name };
  }
  return undefined;
}

/** Whole-string glob match; `*` also crosses `/`, since commands are not paths. */
export function globMatches(pattern: string, text: string): boolean {
  const source = [...pattern].map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${source}$`, "s").test(text);
}

/**
 * The ACP option that carries out a decision: allow once (or always, if once is not offered),
 * reject once (or always). Undefined when the agent offered no such option.
 */
export function chooseOption(options: readonly { optionId: string; kind: string }[], action: "allow" | "deny"): string | undefined {
  const preferred = action === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
  for (const kind of preferred) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option.optionId;
  }
  return undefined;
}
