import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { SandboxPlan } from "./bwrap-args.ts";

/** The system's own folders: read-only in every sandbox (links where the system has links). */
const SYSTEM_PATHS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** Inside `/etc`, what no agent needs: password hashes and the machine's SSH keys. */
const MASKED_FILES = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"];
const MASKED_FOLDERS = ["/etc/ssh"];
/**
 * Variables naming an agent's own folders (its config, data, cache): writable in the sandbox
 * when they lie outside its home, as they are where it keeps its profile.
 */
const PROFILE_VARIABLES = ["CODEX_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "TMPDIR"];

/** What a sandbox is made of, besides the run's worktree: from `[sandbox]`, resolved before the run. */
export type SandboxSpec = { home: string; readOnly: readonly string[]; writable: readonly string[] };

/** What the agent is started with, as {@link planSandbox} reads it. */
export type PlannedCommand = { command: string; args: readonly string[]; env: Record<string, string>; cwd: string };

/**
 * The sandbox of one agent: the system folders read-only; its program (the command, the
 * absolute paths among its arguments, the folders of its PATH and the Node binary that runs the
 * relay) read-only, each as the project or package folder it belongs to; its private home at
 * the path its HOME names; its profile folders and the run's worktree (with the worktree's own
 * git folder) writable; the repository's git objects read-only. Nothing else of the file system
 * is there.
 */
export async function planSandbox(spec: SandboxSpec, command: PlannedCommand, relay?: { port: number; socket: string }): Promise<SandboxPlan> {
  const links: Array<{ path: string; target: string }> = [];
  const system: string[] = [];
  for (const path of SYSTEM_PATHS) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) links.push({ path, target: readlinkSync(path) });
    else if (stat?.isDirectory()) system.push(path);
  }
  const masked = [...MASKED_FILES.filter((path) => existsSync(path)).map((path) => ({ path, folder: false })), ...MASKED_FOLDERS.filter((path) => existsSync(path)).map((path) => ({ path, folder: true }))];

  const homeTarget = command.env["HOME"] !== undefined && isAbsolute(command.env["HOME"]) && command.env["HOME"] !== "/" ? command.env["HOME"] : spec.home;
  await mkdir(spec.home, { recursive: true });
  const cwd = realpathSync(command.cwd);
  const git = gitFolders(cwd);
  const inside = (path: string, roots: readonly string[]) => roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));

  const writable = [...spec.writable, ...(git.own === undefined ? [] : [git.own])];
  for (const name of PROFILE_VARIABLES) {
    const value = command.env[name];
    if (value === undefined || !isAbsolute(value) || !isFolder(value)) continue;
    const path = realpathSync(value);
    if (!inside(path, [homeTarget, cwd, "/tmp"])) writable.push(path);
  }

  const programs = [command.command, ...command.args.filter((arg) => isAbsolute(arg) && existsSync(arg)), process.execPath, ...(command.env["PATH"] ?? "").split(delimiter).filter((dir) => isAbsolute(dir) && isFolder(dir))];
  const readOnly = [...spec.readOnly, ...(git.common === undefined ? [] : [git.common])];
  for (const program of programs) {
    const root = programRoot(program);
    if (!inside(root, system) && !inside(root, readOnly)) readOnly.push(root);
  }
  const plan: SandboxPlan = {
    cwd,
    links,
    readOnly: [...system, ...outermost(readOnly).filter((path) => !inside(path, system))],
    masked,
    home: { source: realpathSync(spec.home), target: homeTarget },
    writable: outermost(writable),
  };
  return relay === undefined ? plan : { ...plan, relay: { node: process.execPath, ...relay } };
}

/**
 * The folder a program belongs to, so that what it loads is there too: the package tree of a
 * file inside `node_modules` (the folder holding the first `node_modules`), else the nearest
 * folder above holding a `node_modules` and a `.git` or `package-lock.json` (a project run
 * from its checkout), else the file alone.
 */
export function programRoot(path: string): string {
  const real = realpathSync(path);
  const marker = `${sep}node_modules${sep}`;
  const at = real.indexOf(marker);
  if (at > 0) return real.slice(0, at);
  for (let dir = isFolder(real) ? real : dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
    if (isFolder(join(dir, "node_modules")) && (existsSync(join(dir, ".git")) || existsSync(join(dir, "package-lock.json")))) return dir;
  }
  return real;
}

/** A git worktree's own folder (`.git/worktrees/<name>`, writable: its index and HEAD) and the repository's (read-only: objects, refs). */
function gitFolders(cwd: string): { own?: string; common?: string } {
  const dotGit = join(cwd, ".git");
  if (!lstatSync(dotGit, { throwIfNoEntry: false })?.isFile()) return {};
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
  if (pointer === undefined) return {};
  const own = resolve(cwd, pointer);
  if (!isFolder(own)) return {};
  const commonFile = join(own, "commondir");
  const common = existsSync(commonFile) ? resolve(own, readFileSync(commonFile, "utf8").trim()) : undefined;
  return { own: realpathSync(own), ...(common !== undefined && isFolder(common) ? { common: realpathSync(common) } : {}) };
}

/** The paths without those inside another of them. */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const path of unique) if (!kept.some((root) => path === root || path.startsWith(root + sep))) kept.push(path);
  return kept;
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
