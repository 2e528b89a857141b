/** Lines of context around each change, as `diff -u` and git show. */
const CONTEXT_LINES = 3;
/**
 * Beyond this many differing lines the shortest edit is not searched for (it costs time and
 * memory that grow with it): the diff then replaces the whole middle. Still a valid diff.
 */
const MAX_EDIT_DISTANCE = 1_000;

type Op = { kind: " " | "-" | "+"; line: string };

/**
 * A unified diff of two texts, as git prints it: `--- a/path`, `+++ b/path`, hunks with 3
 * lines of context. `oldText` undefined means a new file; a missing final newline is marked.
 *
 * @example unifiedDiff("a.txt", "x\n", "y\n") // "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y"
 */
export function unifiedDiff(path: string, oldText: string | undefined, newText: string): string {
  const header = [`--- ${oldText === undefined ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`];
  const oldLines = splitLines(oldText ?? "");
  const newLines = splitLines(newText);
  const ops = diffLines(oldLines, newLines);
  return [...header, ...hunks(ops)].join("\n");
}

/** Lines with their terminator kept apart: the last one without `\n` is marked as git does. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else lines[lines.length - 1] = `${lines.at(-1) as string}\n\\ No newline at end of file`;
  return lines;
}

/** Myers' shortest edit script over lines, with common prefix and suffix trimmed first. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const prefix: Op[] = a.slice(0, start).map((line) => ({ kind: " ", line }));
  const suffix: Op[] = a.slice(endA).map((line) => ({ kind: " ", line }));
  return [...prefix, ...middle(a.slice(start, endA), b.slice(start, endB)), ...suffix];
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const replaceAll = (): Op[] => [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
  if (a.length === 0 || b.length === 0) return replaceAll();
  const max = Math.min(a.length + b.length, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= a.length && y >= b.length) return backtrack(trace, a, b, offset);
    }
  }
  return replaceAll();
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[], offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const prevK = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? k + 1 : k - 1;
    const prevX = v[offset + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      ops.push({ kind: " ", line: a[x] as string });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", line: b[(y -= 1)] as string });
      else ops.push({ kind: "-", line: a[(x -= 1)] as string });
    }
  }
  return ops.reverse();
}

/** Groups changes with their context into `@@ -l,s +l,s @@` hunks. */
function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  let i = 0;
  while (i < changed.length) {
    const first = changed[i] as number;
    let last = first;
    while (i + 1 < changed.length && (changed[i + 1] as number) - last <= 2 * CONTEXT_LINES + 1) last = changed[(i += 1)] as number;
    i += 1;
    const from = Math.max(0, first - CONTEXT_LINES);
    const to = Math.min(ops.length, last + CONTEXT_LINES + 1);
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== "+") oldStart += 1;
      if (op.kind !== "-") newStart += 1;
    }
    const body = ops.slice(from, to);
    const oldCount = body.filter((op) => op.kind !== "+").length;
    const newCount = body.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const op of body) out.push(`${op.kind}${op.line}`);
  }
  return out;
}

/** `start,count` as diff prints it: a count of 1 is left out, an empty range starts one line earlier. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
