import fs from "node:fs";
import os from "node:os";

/**
 * Who holds a writer lock. `start_time` is the process start time in clock ticks since boot
 * (field 22 of `/proc/<pid>/stat`): pids are recycled, and a pid alone would let a new,
 * unrelated process pass for a dead writer. It is null where `/proc` does not exist.
 */
export type ProcessIdentity = { pid: number; start_time: number | null; host: string };

/** What we can say about the process named by an identity. */
export type Liveness = "alive" | "dead" | "unknown";

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, start_time: processStartTime(process.pid) ?? null, host: os.hostname() };
}

/**
 * Field 22 (starttime) of a `/proc/<pid>/stat` line. The second field is the command name in
 * parentheses and may itself contain spaces and parentheses, so fields are counted from the
 * last `)`. Returns undefined for a zombie (it has exited, only its exit status remains).
 */
export function parseProcStat(text: string): { state: string; startTime: number } | undefined {
  const close = text.lastIndexOf(")");
  if (close === -1) return undefined;
  // After ") " come field 3 (state), field 4, … so field N is at index N - 3.
  const fields = text.slice(close + 2).split(" ");
  const state = fields[0];
  const startTime = Number(fields[22 - 3]);
  if (state === undefined || !Number.isSafeInteger(startTime)) return undefined;
  return { state, startTime };
}

/** The start time of a running process, or undefined when there is none (or only a zombie). */
export function processStartTime(pid: number): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const stat = parseProcStat(text);
  if (stat === undefined || stat.state === "Z" || stat.state === "X") return undefined;
  return stat.startTime;
}

const hasProc = fs.existsSync("/proc/self/stat");

/**
 * Whether the process that wrote `holder` still runs. A process on another host cannot be
 * checked from here: "unknown", which callers treat as alive (never steal a lock on a guess).
 */
export function livenessOf(holder: ProcessIdentity, self: ProcessIdentity = currentProcess()): Liveness {
  if (holder.host !== self.host) return "unknown";
  if (hasProc) {
    const startTime = processStartTime(holder.pid);
    if (startTime === undefined) return "dead";
    // A different start time: the pid was recycled by an unrelated process.
    if (holder.start_time !== null && startTime !== holder.start_time) return "dead";
    return "alive";
  }
  try {
    process.kill(holder.pid, 0);
    return "alive";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "alive" : "dead";
  }
}
