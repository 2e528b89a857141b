import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { resolveCommand } from "../agents/resolve-command.ts";
import { BatonError } from "../errors.ts";
import type { AgentCommand } from "../acp/agent-process.ts";
import { bwrapArgs } from "./bwrap-args.ts";
import type { SandboxConfig } from "./sandbox-config.ts";
import { planSandbox, type SandboxSpec } from "./sandbox-plan.ts";

/** A sandbox found usable on this machine, for one agent: bubblewrap's path and what goes in. */
export type AgentSandbox = Omit<SandboxSpec, "home"> & {
  kind: "bwrap";
  bwrap: string;
  /** Each agent's private home: a folder of its own under `under`, or one `fixed` folder for all. */
  homes: { under: string } | { fixed: string };
};

/** How a sandboxed agent reaches the inference proxy: the proxy's port and its unix socket. */
export type ProxyRelay = { port: number; socket: string };

/** Longest wait for the probe; a healthy bwrap answers in milliseconds. */
const PROBE_TIMEOUT_MS = 10_000;

const REFUSAL_HINT = 'install bubblewrap (apt install bubblewrap), or set [sandbox] kind = "none"';

/**
 * The agent's sandbox as `[sandbox]` asks, checked before a run exists: bubblewrap is found and
 * can make the namespaces the sandbox needs (a container's seccomp filter, a sysctl such as
 * `kernel.unprivileged_userns_clone = 0` or an AppArmor rule may forbid them). Undefined for
 * `kind = "none"`.
 *
 * @throws BatonError `sandbox_unavailable`, naming what is missing and what to do.
 */
export async function prepareSandbox(config: SandboxConfig, place: { env: Record<string, string | undefined>; projectRoot: string; batonDir: string }): Promise<AgentSandbox | undefined> {
  if (config.kind === "none") return undefined;
  if (process.platform !== "linux") throw new BatonError("sandbox_unavailable", `[sandbox] kind = "bwrap" needs Linux; this is ${process.platform}`, { hint: 'set [sandbox] kind = "none"' });
  const found = await resolveCommand(config.bwrap ?? "bwrap", place.env["PATH"], place.projectRoot);
  if (!found.found) throw new BatonError("sandbox_unavailable", `[sandbox] kind = "bwrap" needs bubblewrap: ${found.reason}`, { hint: REFUSAL_HINT });
  const failure = await probe(found.path);
  if (failure !== undefined) {
    throw new BatonError("sandbox_unavailable", `bubblewrap cannot make the agent's sandbox here (${failure})`, {
      hint: 'allow user namespaces (a container may forbid them: --security-opt seccomp=unconfined, sysctl kernel.unprivileged_userns_clone=1), or set [sandbox] kind = "none"',
    });
  }
  const homes = config.home === undefined ? { under: join(place.batonDir, "sandbox", "home") } : { fixed: resolve(place.projectRoot, config.home) };
  return { kind: "bwrap", bwrap: found.path, homes, readOnly: config.read_only, writable: config.writable };
}

/**
 * The agent's command run inside its sandbox: bwrap, then (with a proxy) the relay to it, then
 * the agent. The environment is the agent's own.
 */
export async function sandboxedCommand(command: AgentCommand, agentName: string, sandbox: AgentSandbox, relay?: ProxyRelay): Promise<AgentCommand> {
  const home = "fixed" in sandbox.homes ? sandbox.homes.fixed : join(sandbox.homes.under, agentName);
  const plan = await planSandbox({ home, readOnly: sandbox.readOnly, writable: sandbox.writable }, command, relay);
  return { ...command, command: sandbox.bwrap, args: bwrapArgs(plan, command.command, command.args) };
}

/** Makes the namespaces an agent's sandbox has and runs `true` in them; the first line of error when that fails. */
function probe(bwrap: string): Promise<string | undefined> {
  const args = ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"];
  return new Promise((resolvePromise) => {
    execFile(bwrap, args, { timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL", env: {} }, (error, _stdout, stderr) => {
      if (error === null) return resolvePromise(undefined);
      resolvePromise(stderr.trim().split("\n")[0] || error.message);
    });
  });
}
