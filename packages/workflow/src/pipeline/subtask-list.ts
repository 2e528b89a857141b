import { z } from "zod";

/** Most subtasks one plan may hold: each is a worktree, an agent and a merge. */
export const MAX_SUBTASKS = 50;

export const subtaskSchema = z.strictObject({
  /** Short, unique, safe in a branch name: `parser`, `api-docs`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "lowercase letters, digits and - (at most 40), starting with a letter or digit"),
  title: z.string().trim().min(1).max(200),
  /** What the agent building it is told: the whole job, on its own. */
  prompt: z.string().trim().min(1),
  /** The files it expects to touch (a hint for the plan's reader). */
  files: z.array(z.string().min(1)).optional(),
});
export type Subtask = z.infer<typeof subtaskSchema>;

export const subtaskListSchema = z
  .strictObject({ subtasks: z.array(subtaskSchema).min(1).max(MAX_SUBTASKS) })
  .superRefine((list, issues) => {
    const seen = new Set<string>();
    for (const [index, subtask] of list.subtasks.entries()) {
      if (seen.has(subtask.id)) issues.addIssue({ code: "custom", path: ["subtasks", index, "id"], message: `"${subtask.id}" is given twice: ids must be unique` });
      seen.add(subtask.id);
    }
  });

/** The shape the plan stage's prompt gives the agent, word for word. */
export const SUBTASK_LIST_EXAMPLE = `{
  "subtasks": [
    { "id": "parser", "title": "Fix the date parser", "prompt": "In src/date.ts, …", "files": ["src/date.ts"] }
  ]
}`;

export const SUBTASK_LIST_RULES = `1 to ${MAX_SUBTASKS} subtasks; each id unique, lowercase letters, digits and - (at most 40 characters); title and prompt not empty; files optional. Each subtask is built on its own, in parallel with the others, from the same starting point: make them independent, and keep two subtasks from editing the same lines.`;

/** A subtask list read from its JSON text, or the problem with it, naming where. */
export function parseSubtaskList(text: string): { subtasks: Subtask[] } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `it is not JSON (${(error as Error).message})` };
  }
  const parsed = subtaskListSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
  return { problem: `${where}${issue?.message ?? "invalid"}` };
}
