import { RELAY_LAUNCHER, RELAY_SOURCE, SANDBOX_PROXY_SOCKET } from "./proxy-relay.ts";

/**
 * The folders above a mount point inside the sandbox's writable `/tmp` that nothing mounted yet
 * holds, made with mode 0555 (the root's are read-only with it, `--remount-ro /`): a path the
 * agent writes beside its worktree fails as it would on the host, instead of landing in `/tmp`.
 */
function readOnlyParents(target: string, mounted: readonly string[]): string[] {
  const out: string[] = [];
  const parts = target.split("/").filter((part) => part.length > 0);
  for (let i = 1; i < parts.length; i++) {
    const dir = `/${parts.slice(0, i).join("/")}`;
    if (!dir.startsWith("/tmp/")) continue;
    if (mounted.some((path) => dir === path || dir.startsWith(`${path}/`))) continue;
    out.push(dir);
  }
  return out;
}

/** What one agent's sandbox holds, every path as the host names it (bound at the same path unless said). */
export type SandboxPlan = {
  /** The folder the agent starts in: the run's worktree, writable. */
  cwd: string;
  /** Links of the root (`/bin` → `usr/bin` on a merged-/usr system). */
  links: ReadonlyArray<{ path: string; target: string }>;
  readOnly: readonly string[];
  /** Paths hidden inside what is read-only (`/etc/shadow`): files by an empty one, folders by an empty tmpfs. */
  masked: ReadonlyArray<{ path: string; folder: boolean }>;
  /** The private home, mounted at the path the agent's HOME names. */
  home?: { source: string; target: string };
  writable: readonly string[];
  /** The relay to the inference proxy: the Node binary it runs under, the port it listens on, the proxy's socket on the host. */
  relay?: { node: string; port: number; socket: string };
};

/**
 * bubblewrap's arguments for a plan and the agent's command: its own user, process, network,
 * IPC and UTS namespaces (only a loopback interface: nothing outside answers), a fresh `/proc`,
 * `/dev` and `/tmp`, the plan's paths, and the agent's command last. bwrap dies with Baton
 * (`--die-with-parent`), and every process in the sandbox dies with the agent's: its first
 * process's exit ends the process namespace. Later mounts win, so the writable ones come last.
 */
export function bwrapArgs(plan: SandboxPlan, command: string, args: readonly string[]): string[] {
  // No capability, even for root in its namespace: modes hold (the folders made read-only below).
  const out = ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--cap-drop", "ALL"];
  out.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  const mounted: string[] = [];
  const made = new Set<string>();
  const bind = (option: string, source: string, target: string) => {
    const parents = readOnlyParents(target, mounted).filter((dir) => !made.has(dir));
    out.push(...parents.flatMap((dir) => ["--perms", "0555", "--dir", dir]), option, source, target);
    for (const dir of parents) made.add(dir);
    mounted.push(target);
  };
  for (const link of plan.links) out.push("--symlink", link.target, link.path);
  for (const path of plan.readOnly) bind("--ro-bind", path, path);
  for (const mask of plan.masked) out.push(...(mask.folder ? ["--tmpfs", mask.path] : ["--ro-bind", "/dev/null", mask.path]));
  if (plan.home !== undefined) bind("--bind", plan.home.source, plan.home.target);
  for (const path of plan.writable) bind("--bind", path, path);
  bind("--bind", plan.cwd, plan.cwd);
  if (plan.relay !== undefined) bind("--ro-bind", plan.relay.socket, SANDBOX_PROXY_SOCKET);
  // The folders bwrap made to mount on are read-only: nothing written beside the worktree is kept somewhere the agent thinks is the host.
  out.push("--remount-ro", "/", "--chdir", plan.cwd, "--");
  if (plan.relay === undefined) return [...out, command, ...args];
  return [...out, "/bin/sh", "-c", RELAY_LAUNCHER, RELAY_SOURCE, plan.relay.node, String(plan.relay.port), SANDBOX_PROXY_SOCKET, command, ...args];
}
