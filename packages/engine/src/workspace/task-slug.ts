/** Longest slug in a branch or worktree name: long enough to recognise the task, short enough to type. */
export const MAX_SLUG_CHARS = 40;

/**
 * The task as a branch-name slug: lower case ASCII letters, digits and single dashes, at most
 * {@link MAX_SLUG_CHARS} characters, never empty ("task").
 *
 * @example taskSlug("Fix the flaky date test!") // => "fix-the-flaky-date-test"
 */
export function taskSlug(task: string): string {
  const ascii = task
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const cut = ascii.slice(0, MAX_SLUG_CHARS).replace(/-+$/, "");
  return cut === "" ? "task" : cut;
}
