// The processes of this machine as end-to-end tests look at them: from /proc, by process group,
// by command line, by working directory, and their CPU time. Cleanup kills by name or place,
// never by a pid kept from earlier (pids are reused).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { waitFor } from "./cli-harness.ts";

export type ProcessInfo = { pid: number; state: string; ppid: number; pgrp: number; cmdline: string };

/**
 * The processes of this machine from /proc: pid, state (field 3 of stat), parent (field 4),
 * process group (field 5) and command line. Fields are counted from the last `)`, since the command name in
 * field 2 may hold spaces and parentheses. Processes that vanish while being read are skipped.
 */
export function listProcesses(): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      processes.push({ pid: Number(name), state: fields[0] ?? "?", ppid: Number(fields[1]), pgrp: Number(fields[2]), cmdline });
    } catch {
      // It exited between readdir and read.
    }
  }
  return processes;
}

/** A zombie (Z) or dead (X) process has exited; only its exit status is left to collect. */
function isLive(info: ProcessInfo): boolean {
  return info.state !== "Z" && info.state !== "X";
}

/** The processes of a process group that have not exited. */
export function liveGroupMembers(pgrp: number): ProcessInfo[] {
  return listProcesses().filter((p) => p.pgrp === pgrp && isLive(p));
}

/** Live fake-agent processes playing the script at `scriptPath` (its path is unique per test). */
export function fakeAgentsPlaying(scriptPath: string): ProcessInfo[] {
  return listProcesses().filter((p) => isLive(p) && p.cmdline.includes("fake-agent") && p.cmdline.includes(scriptPath));
}

/** Waits for the fake agent of `scriptPath` to run, and returns its process group. */
export async function waitForAgentGroup(scriptPath: string): Promise<number> {
  let agents: ProcessInfo[] = [];
  await waitFor(`the fake agent playing ${scriptPath}`, () => (agents = fakeAgentsPlaying(scriptPath)).length > 0);
  return (agents[0] as ProcessInfo).pgrp;
}

/**
 * SIGKILLs the live processes whose command line holds `text` (a path unique to one test).
 * Cleanup by name, not by a pid kept from earlier: pids are reused, and a pid that has ended
 * may by now be another test's process.
 */
export function killProcessesNaming(text: string): void {
  for (const info of listProcesses()) {
    if (!isLive(info) || !info.cmdline.includes(text) || info.pid === process.pid) continue;
    try {
      process.kill(info.pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}

/**
 * Live processes working below `dir` (their current directory is `dir` or inside it): the
 * processes of a run in a test repository, the agent and whatever it started, wherever they
 * went in the process tree. Processes of other users (unreadable cwd) are skipped.
 */
export function liveProcessesUnder(dir: string): ProcessInfo[] {
  const real = realpathSync(dir);
  return listProcesses().filter((info) => {
    if (!isLive(info)) return false;
    try {
      const cwd = readlinkSync(`/proc/${info.pid}/cwd`);
      return cwd === real || cwd.startsWith(`${real}/`);
    } catch {
      return false;
    }
  });
}

/** SIGKILLs every process working below `dir` (cleanup of processes a test's run may leave). */
export function killProcessesUnder(dir: string): void {
  for (const info of liveProcessesUnder(dir)) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}

/** SIGKILLs a process group if anything is left in it (cleanup of a run whose baton was killed). */
export function killGroup(pgrp: number): void {
  if (pgrp <= 1 || pgrp === process.pid) return;
  try {
    process.kill(-pgrp, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

let clockTicks: number | undefined;

/**
 * CPU time (user + system) a live process has used so far, in seconds: fields 14 and 15 of
 * /proc/<pid>/stat, in clock ticks (counted from the last `)`, as in listProcesses).
 */
export function cpuSeconds(pid: number): number {
  clockTicks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/**
 * The CPU time a process uses during `windowMs` of wall time. A measurement over a window,
 * not a wait for a state: what it proves is that a process with nothing to do uses next to
 * none, whatever the machine's load (CPU time does not grow while a process waits its turn).
 */
export async function cpuSecondsOver(pid: number, windowMs: number): Promise<number> {
  const before = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return cpuSeconds(pid) - before;
}
