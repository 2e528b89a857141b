/** What `{{ … }}` in a prompt may name: the workflow's goal, and run context keys. */
export type PromptValues = { goal?: string | undefined; context: Readonly<Record<string, unknown>> };

const PLACEHOLDER = /\{\{\s*(goal|context\.([A-Za-z0-9_.-]+))\s*\}\}/g;

/**
 * Expands `{{ goal }}` and `{{ context.KEY }}` in a prompt. A context value that is not a
 * string is written as JSON; a missing one as nothing. Other `{{ … }}` are left as written.
 * Prompts only: a command's script never has context put into its text (an agent's words in
 * a shell line are an injection); commands get it as environment variables.
 *
 * @example expandPrompt("Plan: {{ goal }} ({{ context.ticket }})", { goal: "add login", context: { ticket: 42 } }) // "Plan: add login (42)"
 */
export function expandPrompt(template: string, values: PromptValues): string {
  return template.replaceAll(PLACEHOLDER, (_whole, name: string, key: string | undefined) => {
    if (key === undefined) return values.goal ?? "";
    const value = Object.hasOwn(values.context, key) ? values.context[key] : undefined;
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}
