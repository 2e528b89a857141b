// A file's hunks as lines to draw: each with its kind and its old and new line numbers.

export type DiffLine = { kind: "hunk" | "add" | "del" | "ctx" | "note"; text: string; old?: number; new?: number };

export function diffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const text of patch === "" ? [] : patch.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk !== null) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      lines.push({ kind: "hunk", text });
    } else if (text.startsWith("+")) lines.push({ kind: "add", text: text.slice(1), new: newLine++ });
    else if (text.startsWith("-")) lines.push({ kind: "del", text: text.slice(1), old: oldLine++ });
    else if (text.startsWith("\\")) lines.push({ kind: "note", text });
    else lines.push({ kind: "ctx", text: text.slice(1), old: oldLine++, new: newLine++ });
  }
  return lines;
}
