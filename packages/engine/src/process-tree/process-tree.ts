import { environValue, hasExited, listsChildren, readDescendants, readProcEntry, readProcTable, type ProcEntry } from "./proc-table.ts";

/** A variable in the environment of every process of a tree: set in the root's, inherited by the rest. */
export type TreeTag = { name: string; value: string };

/**
 * What a tree remembers between looks at `/proc`: its members by pid and start time (a pid
 * alone could name an unrelated process once recycled), and the sessions and process groups
 * they lead, by the leader's start time.
 */
export type TreeMarks = {
  members: Map<number, number>;
  leaders: Map<number, number>;
};

/**
 * The members of a tree in one snapshot of the process table, and `marks` updated with them.
 * A process belongs to the tree when it is a remembered member (same pid, same start time),
 * a child of a member (started after it), in a session or process group a member leads (which
 * keeps an orphan whose parent has exited: it is re-parented to init, but stays in its session),
 * or when `tagged` says so (its environment carries the tree's tag). A remembered pid or leader
 * whose start time changed was recycled: it is forgotten, never matched.
 */
export function findMembers(table: ReadonlyMap<number, ProcEntry>, marks: TreeMarks, tagged?: (entry: ProcEntry) => boolean): ProcEntry[] {
  const same = (id: number, startTime: number) => table.get(id)?.startTime === startTime;
  for (const [pid, startTime] of marks.members) if (!same(pid, startTime)) marks.members.delete(pid);
  // A leader that has exited leaves its session or group id in use while any member is left,
  // so only a leader pid now held by a process of another start time means the id was recycled.
  for (const [id, startTime] of marks.leaders) if (table.has(id) && !same(id, startTime)) marks.leaders.delete(id);
  const found = new Map<number, ProcEntry>();
  const children = new Map<number, ProcEntry[]>();
  for (const entry of table.values()) {
    const siblings = children.get(entry.ppid);
    if (siblings === undefined) children.set(entry.ppid, [entry]);
    else siblings.push(entry);
    const belongs = marks.members.has(entry.pid) || marks.leaders.has(entry.session) || marks.leaders.has(entry.pgrp) || tagged?.(entry) === true;
    if (belongs) found.set(entry.pid, entry);
  }
  // Descendants of every member, however deep.
  const pending = [...found.values()];
  for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
    for (const child of children.get(parent.pid) ?? []) {
      if (found.has(child.pid) || child.startTime < parent.startTime) continue;
      found.set(child.pid, child);
      pending.push(child);
    }
  }
  for (const entry of found.values()) {
    marks.members.set(entry.pid, entry.startTime);
    if (entry.session === entry.pid || entry.pgrp === entry.pid) marks.leaders.set(entry.pid, entry.startTime);
  }
  return [...found.values()];
}

/**
 * Looks at `/proc` this often while an agent runs, to learn its descendants while their
 * parents are still alive: a process that leaves the agent's session and whose parent then
 * exits can be told apart only by what an earlier look saw (or by the tree's tag). Each look
 * follows the remembered members' children (a few small files per process of the tree, not
 * one per process of the machine); where the kernel does not list children, it reads every
 * process's entry (about 2 ms for a hundred processes).
 */
export const TREE_SCAN_MS = 500;

/**
 * How long killing a tree waits, at most, for the processes it signalled to be gone (a process
 * in uninterruptible sleep dies only when its I/O returns), looking again every few ms: a
 * member may fork between a look and its kill, and the next look finds the child.
 */
const KILL_WAIT_MS = 1000;
const KILL_LOOK_MS = 5;

/**
 * The processes an agent started, tracked through `/proc` while it runs, so that all of them
 * can be ended with it: its session and group (a child that does not leave them), its
 * descendants seen by periodic looks (one that does, by `setsid` or a process group of its
 * own), and any process whose environment carries `tag` (set in the agent's environment and
 * inherited by what it starts: this finds a process that left the session and lost its parent
 * before any look saw it). Nothing is ever killed by pid alone: pid and start time must both
 * match.
 *
 * Linux only; where `/proc` cannot be read, `ProcessTree.track` returns undefined and the
 * caller has the agent's process group alone.
 */
export class ProcessTree implements Disposable {
  readonly #marks: TreeMarks = { members: new Map(), leaders: new Map() };
  readonly #root: ProcEntry;
  readonly #tag: TreeTag | undefined;
  readonly #procDir: string;
  /** Whether a look can follow children (see listsChildren) rather than read the whole table. */
  readonly #followsChildren: boolean;
  #timer: NodeJS.Timeout | undefined;

  private constructor(root: ProcEntry, tag: TreeTag | undefined, procDir: string) {
    this.#root = root;
    this.#tag = tag;
    this.#procDir = procDir;
    this.#followsChildren = listsChildren(root.pid, procDir);
    this.#marks.members.set(root.pid, root.startTime);
    if (root.session === root.pid || root.pgrp === root.pid) this.#marks.leaders.set(root.pid, root.startTime);
  }

  /**
   * Starts tracking the tree below `pid` (a process that was just started), looking again
   * every `scanMs` until disposed or killed. Undefined when the process cannot be read.
   */
  static track(pid: number, options: { tag?: TreeTag; scanMs?: number; procDir?: string } = {}): ProcessTree | undefined {
    const procDir = options.procDir ?? "/proc";
    const root = readProcEntry(pid, procDir);
    if (root === undefined) return undefined;
    const tree = new ProcessTree(root, options.tag, procDir);
    tree.#timer = setInterval(() => tree.scan(), options.scanMs ?? TREE_SCAN_MS);
    // A look is bookkeeping: it must never keep Baton alive.
    tree.#timer.unref();
    return tree;
  }

  /**
   * Looks at `/proc` once and remembers the members it finds; returns them (exited ones
   * included). The remembered members and their descendants are what a look must learn: a
   * process that stays in a member's session or group without descending from one (an orphan
   * re-parented to init) is found by the whole-table look of killAll, and one that also left
   * the session by the tree's tag.
   */
  scan(): ProcEntry[] {
    const table = this.#followsChildren ? readDescendants(this.#marks.members.keys(), this.#procDir) : readProcTable(this.#procDir);
    return findMembers(table, this.#marks);
  }

  /**
   * SIGKILLs every live member, the tagged ones included, and returns once none is left (see
   * killInRounds); stops the periodic looks. Synchronous, so that it can run in a process
   * `exit` handler. Returns how many processes were signalled.
   */
  killAll(): number {
    this[Symbol.dispose]();
    const tag = this.#tag;
    const tagged = tag === undefined ? undefined : (entry: ProcEntry) => entry.startTime >= this.#root.startTime && environValue(entry.pid, tag.name, this.#procDir) === tag.value;
    return killInRounds(this.#procDir, (table) => findMembers(table, this.#marks, tagged));
  }

  /** Stops the periodic looks; kills nothing. */
  [Symbol.dispose](): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * SIGKILLs every process whose environment has variable `name` with a value `matches` accepts,
 * started at or after `notBefore` (clock ticks since boot, as in `/proc/<pid>/stat`): what is
 * left of a tree whose tracker died with its process. Returns how many were signalled.
 */
export function killTagged(name: string, matches: (value: string) => boolean, options: { notBefore?: number; procDir?: string } = {}): number {
  const procDir = options.procDir ?? "/proc";
  const notBefore = options.notBefore ?? 0;
  return killInRounds(procDir, (table) =>
    [...table.values()].filter((entry) => {
      if (entry.startTime < notBefore) return false;
      const value = environValue(entry.pid, name, procDir);
      return value !== undefined && matches(value);
    }),
  );
}

/**
 * Looks at `/proc` and SIGKILLs what `find` returns, again and again until a look finds none of
 * it alive (or KILL_WAIT_MS have passed): what forked meanwhile is killed too, and the caller
 * knows the processes have gone, not only been signalled. Never this process, nor init.
 * Synchronous (it pauses with Atomics.wait), so that it can run in an `exit` handler.
 */
function killInRounds(procDir: string, find: (table: ReadonlyMap<number, ProcEntry>) => ProcEntry[]): number {
  const signalled = new Map<number, number>();
  const unkillable = new Set<number>();
  const deadline = performance.now() + KILL_WAIT_MS;
  for (;;) {
    const alive = find(readProcTable(procDir)).filter((entry) => !hasExited(entry) && entry.pid !== process.pid && entry.pid > 1 && !unkillable.has(entry.pid));
    for (const entry of alive) {
      if (signalled.get(entry.pid) === entry.startTime) continue;
      signalled.set(entry.pid, entry.startTime);
      try {
        // Between the look and this kill the pid cannot have been recycled in practice: pids
        // are handed out in turn up to pid_max before any is reused.
        process.kill(entry.pid, "SIGKILL");
      } catch (error) {
        // ESRCH: it exited meanwhile. EPERM: not ours to signal (it changed user): not waited for.
        if ((error as NodeJS.ErrnoException).code === "EPERM") unkillable.add(entry.pid);
      }
    }
    if (alive.length === 0 || performance.now() > deadline) break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, KILL_LOOK_MS);
  }
  return signalled.size;
}
