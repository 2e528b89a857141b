import fs from "node:fs";

/** What `/proc/<pid>/stat` says about a process: who started it, where it belongs, when it started. */
export type ProcEntry = {
  pid: number;
  /** Field 3: R, S, D, Z (zombie: exited, waiting to be reaped), X (dead), … */
  state: string;
  ppid: number;
  /** Process group id (field 5). */
  pgrp: number;
  /** Session id (field 6). */
  session: number;
  /**
   * Start time in clock ticks since boot (field 22). Pids are recycled: pid and start time
   * together name one process for good.
   */
  startTime: number;
};

/**
 * Parses a `/proc/<pid>/stat` line. The second field is the command name in parentheses and may
 * itself hold spaces and parentheses, so fields are counted from the last `)`.
 */
export function parseProcStat(text: string): ProcEntry | undefined {
  const close = text.lastIndexOf(")");
  if (close === -1) return undefined;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  // After ") " come field 3 (state), field 4, … so field N is at index N - 3.
  const fields = text.slice(close + 2).split(" ");
  const [state, ppid, pgrp, session, startTime] = [fields[0], ...[4, 5, 6, 22].map((field) => Number(fields[field - 3]))];
  if (state === undefined || ![pid, ppid, pgrp, session, startTime].every((n) => Number.isSafeInteger(n))) return undefined;
  return { pid, state, ppid: ppid as number, pgrp: pgrp as number, session: session as number, startTime: startTime as number };
}

/** Whether a process is gone, but for the exit status its parent has not collected yet. */
export function hasExited(entry: ProcEntry): boolean {
  return entry.state === "Z" || entry.state === "X";
}

/** Every process of this machine (that can be read), by pid. Empty where there is no `/proc`. */
export function readProcTable(procDir = "/proc"): Map<number, ProcEntry> {
  const table = new Map<number, ProcEntry>();
  let names: string[];
  try {
    names = fs.readdirSync(procDir);
  } catch {
    return table;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcEntry(Number(name), procDir);
    if (entry !== undefined) table.set(entry.pid, entry);
  }
  return table;
}

/** One process's entry, or undefined when it has gone (or cannot be read). */
export function readProcEntry(pid: number, procDir = "/proc"): ProcEntry | undefined {
  try {
    return parseProcStat(fs.readFileSync(`${procDir}/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The value of variable `name` in the environment a process was started with; undefined when
 * it has none, has gone, or its environment cannot be read (another user's).
 */
export function environValue(pid: number, name: string, procDir = "/proc"): string | undefined {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`${procDir}/${pid}/environ`);
  } catch {
    return undefined;
  }
  const prefix = `${name}=`;
  return environ
    .toString("utf8")
    .split("\0")
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
}

/**
 * Whether this kernel lists each thread's children (`/proc/<pid>/task/<tid>/children`, Linux
 * 3.5 on with CONFIG_PROC_CHILDREN): asked of `pid`'s main thread, a process that is alive.
 */
export function listsChildren(pid: number, procDir = "/proc"): boolean {
  return fs.existsSync(`${procDir}/${pid}/task/${pid}/children`);
}

/**
 * The entries of the processes `roots` and of all their descendants, found by following each
 * one's children (listed under the thread that forked them, `/proc/<pid>/task/<tid>/children`)
 * instead of reading every process of the machine. A root that has gone is left out, and so is
 * a process that exits while it is read. Needs {@link listsChildren}.
 */
export function readDescendants(roots: Iterable<number>, procDir = "/proc"): Map<number, ProcEntry> {
  const table = new Map<number, ProcEntry>();
  const pending = [...roots];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (table.has(pid)) continue;
    const entry = readProcEntry(pid, procDir);
    if (entry === undefined) continue;
    table.set(pid, entry);
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`${procDir}/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      let children: string;
      try {
        children = fs.readFileSync(`${procDir}/${pid}/task/${task}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of children.split(" ")) if (/^\d+$/.test(child)) pending.push(Number(child));
    }
  }
  return table;
}
