// A unified diff (git's output) split into its files, each with its added and removed lines.

/** One file of a run's change, as `GET /api/runs/{ref}/diff` lists it. */
export type DiffFile = {
  path: string;
  /** The path before a rename. */
  old_path?: string;
  change: "added" | "deleted" | "modified" | "renamed";
  binary: boolean;
  added: number;
  removed: number;
  /** The file's hunks (from its first `@@`), cut at the size limits; empty for a binary file. */
  patch: string;
  /** True when `patch` was cut (or left out) by the size limits; the counts are still whole. */
  truncated: boolean;
};

export type DiffLimits = { filePatchChars: number; totalPatchChars: number };

/** One file's hunks shown up to 200,000 characters, all files' up to 2,000,000: a browser stays responsive. */
export const DEFAULT_DIFF_LIMITS: DiffLimits = { filePatchChars: 200_000, totalPatchChars: 2_000_000 };

type Draft = DiffFile & { lines: string[]; inHunks: boolean };

/**
 * Splits `git diff` output into files. Counts are of `+`/`-` lines inside hunks, so a file
 * whose content starts with `++` is counted right; a `\ No newline` marker is kept in the patch.
 *
 * @example parseUnifiedDiff("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n")[0] // {path: "a", added: 1, removed: 1, …}
 */
export function parseUnifiedDiff(text: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): DiffFile[] {
  const files: DiffFile[] = [];
  let budget = limits.totalPatchChars;
  let current: Draft | undefined;
  const finish = () => {
    if (current === undefined) return;
    const { lines, inHunks: _inHunks, ...file } = current;
    let patch = lines.join("\n");
    const cap = Math.min(limits.filePatchChars, budget);
    if (patch.length > cap) {
      const cut = patch.lastIndexOf("\n", cap);
      patch = cut <= 0 ? "" : patch.slice(0, cut);
      file.truncated = true;
    }
    budget -= patch.length;
    files.push({ ...file, patch });
    current = undefined;
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      finish();
      const paths = gitHeaderPaths(line.slice("diff --git ".length));
      current = { path: paths.b, change: "modified", binary: false, added: 0, removed: 0, patch: "", truncated: false, lines: [], inHunks: false };
      if (paths.a !== paths.b) current.old_path = paths.a;
      continue;
    }
    if (current === undefined) continue;
    if (!current.inHunks) {
      if (line.startsWith("@@")) {
        current.inHunks = true;
        current.lines.push(line);
      } else if (line.startsWith("new file mode")) current.change = "added";
      else if (line.startsWith("deleted file mode")) current.change = "deleted";
      else if (line.startsWith("rename from ")) {
        current.change = "renamed";
        current.old_path = unquote(line.slice("rename from ".length));
      } else if (line.startsWith("rename to ")) current.path = unquote(line.slice("rename to ".length));
      else if (line.startsWith("+++ ") && line !== "+++ /dev/null") current.path = stripPrefix(unquote(line.slice(4)), "b/");
      else if (line.startsWith("--- ") && line !== "--- /dev/null" && current.change !== "renamed") {
        const old = stripPrefix(unquote(line.slice(4)), "a/");
        if (old !== current.path) current.old_path = old;
      } else if (line.startsWith("Binary files ") || line === "GIT binary patch") current.binary = true;
      continue;
    }
    if (line.startsWith("+")) current.added += 1;
    else if (line.startsWith("-")) current.removed += 1;
    else if (line === "") continue;
    current.lines.push(line);
  }
  finish();
  // An untracked file shown with `--no-index` names itself under a/ too: no rename there.
  for (const file of files) if (file.change === "added") delete file.old_path;
  return files;
}

/** `a/x b/x` → both paths; a quoted pair (`"a/x y" "b/x y"`) is unquoted. */
function gitHeaderPaths(rest: string): { a: string; b: string } {
  const quoted = /^"((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"$/.exec(rest);
  if (quoted !== null) return { a: stripPrefix(unescape(quoted[1]!), "a/"), b: stripPrefix(unescape(quoted[2]!), "b/") };
  // Unquoted: the two halves are equal but for the prefix when the file was not renamed.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3)) return { a: rest.slice(2, half), b: rest.slice(half + 3) };
  const at = rest.indexOf(" b/");
  return at === -1 ? { a: rest, b: rest } : { a: stripPrefix(rest.slice(0, at), "a/"), b: rest.slice(at + 3) };
}

function stripPrefix(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

function unquote(path: string): string {
  const trimmed = path.replace(/\t$/, "");
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? unescape(trimmed.slice(1, -1)) : trimmed;
}

/** git's C-style escapes; octal bytes are UTF-8. */
function unescape(text: string): string {
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, '"': 34, "\\": 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char !== "\\") {
      bytes.push(...new TextEncoder().encode(char));
      continue;
    }
    const next = text[index + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(text.slice(index + 1));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
