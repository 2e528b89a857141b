import { execFile } from "node:child_process";
import type { AgentCommand } from "../acp/agent-process.ts";
import { resolveCommand } from "../agents/resolve-command.ts";

/** `[isolation] agent`: a user namespace of its own where the kernel allows one, or none at all. */
export type AgentIsolationMode = "user_namespace" | "none";

/**
 * How the agent's process is kept from reading Baton's, as found on this machine. In a user
 * namespace of its own the agent keeps Baton's user id and its files, but no process outside
 * the namespace is open to it: the kernel lets a process read another's `/proc/<pid>/environ`,
 * `mem` or `maps` only from the same user namespace or with CAP_SYS_PTRACE in the other's,
 * and root inside a namespace has no capability outside it.
 */
export type AgentIsolation =
  | { kind: "user_namespace"; unshare: string; args: readonly string[] }
  | { kind: "none"; reason: string; chosen: boolean };

/** Longest wait for the probe; a healthy `unshare` answers in milliseconds. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Finds out whether the agent can have a user namespace of its own here: util-linux's
 * `unshare` on `path`, and a kernel that lets this user make one (a container's seccomp
 * filter or a sysctl may forbid it). The same user id is mapped inside (root as root), so the
 * agent's files, git's ownership checks and its tools see what they saw before.
 */
export async function chooseAgentIsolation(mode: AgentIsolationMode, path: string | undefined): Promise<AgentIsolation> {
  if (mode === "none") return { kind: "none", reason: '[isolation] agent = "none"', chosen: true };
  if (process.platform !== "linux") return { kind: "none", reason: `user namespaces are Linux's; this is ${process.platform}`, chosen: false };
  const key = path ?? "";
  let found = namespaces.get(key);
  if (found === undefined) {
    found = findUserNamespace(path);
    namespaces.set(key, found);
    // Only a namespace found is kept: a probe that failed (timed out, say) is tried again next time.
    const forget = () => namespaces.delete(key);
    found.then((isolation) => {
      if (isolation.kind === "none") forget();
    }, forget);
  }
  return found;
}

/**
 * The user namespaces found in this process, by the agent's PATH. A run asks for its agent's
 * (see `execute-run.ts`) when it starts, so that the probe's process runs while the run makes
 * its workspace, not between the workspace and the agent's start; a worker's later runs ask again
 * for nothing.
 */
const namespaces = new Map<string, Promise<AgentIsolation>>();

async function findUserNamespace(path: string | undefined): Promise<AgentIsolation> {
  const unshare = await resolveCommand("unshare", path, "/");
  if (!unshare.found) return { kind: "none", reason: "util-linux's unshare is not on PATH", chosen: false };
  // --map-root-user is the older option (util-linux 2.24) and means the same for root.
  const args = ["--user", process.geteuid?.() === 0 ? "--map-root-user" : "--map-current-user", "--"];
  const failure = await probe(unshare.path, [...args, unshare.path, "--version"]);
  if (failure !== undefined) return { kind: "none", reason: `no user namespace could be made (${failure})`, chosen: false };
  return { kind: "user_namespace", unshare: unshare.path, args };
}

/** The agent's command, started in its own user namespace when there is one (`unshare` execs it: same pid). */
export function isolatedCommand(command: AgentCommand, isolation: AgentIsolation): AgentCommand {
  if (isolation.kind === "none") return command;
  return { ...command, command: isolation.unshare, args: [...isolation.args, command.command, ...command.args] };
}

/** The `log` event of a run whose agent is not isolated: a warning unless the config chose it. */
export function notIsolatedLog(isolation: { reason: string; chosen: boolean }): { level: "info" | "warn"; code: string; message: string } {
  return {
    level: isolation.chosen ? "info" : "warn",
    code: "agent_not_isolated",
    message: `the agent runs without a user namespace of its own (${isolation.reason}): its tools can read the memory of Baton and of the user's other processes`,
  };
}

/** Runs the probe; its first line of error when it fails. */
function probe(command: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL", env: {} }, (error, _stdout, stderr) => {
      if (error === null) return resolve(undefined);
      resolve(stderr.trim().split("\n")[0] || error.message);
    });
  });
}
