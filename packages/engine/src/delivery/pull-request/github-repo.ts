/**
 * The GitHub repository (`owner/name`) a remote URL points to: `https://github.com/o/r(.git)`,
 * `git@github.com:o/r.git`, `ssh://git@github.com/o/r.git` (any host: GitHub Enterprise too).
 * Undefined for anything else (a path, a bare repository on disk).
 */
export function githubRepoOf(url: string): string | undefined {
  const scp = /^[\w.-]+@[\w.-]+:([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url);
  if (scp !== null) return `${scp[1] ?? ""}/${scp[2] ?? ""}`;
  const web = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?[^/]+\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url);
  if (web !== null) return `${web[1] ?? ""}/${web[2] ?? ""}`;
  return undefined;
}
