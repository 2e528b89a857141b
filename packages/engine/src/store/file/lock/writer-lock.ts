import fs from "node:fs";
import { BatonError } from "../../../errors.ts";
import type { RunPaths } from "../layout.ts";
import { livenessOf, type ProcessIdentity } from "./process-identity.ts";

/** What a lock file says: who holds it, and a token that makes this holding unique. */
export type LockHolder = ProcessIdentity & { token: string; acquired_at: string };

export type LockAttempt =
  | { kind: "acquired"; lock: WriterLock; replaced: LockHolder | undefined }
  | { kind: "held"; holder: LockHolder };

/** Rounds of "create, find it held, find it stale, take over" before giving up under contention. */
const MAX_ACQUIRE_ROUNDS = 5;

/**
 * The one-writer-per-run lock. The lock file is created whole and atomically: its content is
 * written to a private temporary file which is then hard-linked to the lock path (`link`
 * fails when the path exists), so no reader ever sees an empty or half-written lock — which
 * `open(path, "wx")` followed by a write would allow.
 *
 * A stale lock (its process dead, or its pid recycled by a process with another start time)
 * is taken over under a second, short-lived guard file: the taker re-reads the lock while
 * holding the guard and removes it only if it is still the same stale holding (same token).
 * So two takers can never both win, and a live writer's lock is never removed by a taker
 * that looked at an older one. The race we accept: a taker that dies while holding the
 * guard leaves a stale guard, and two processes that both find that guard stale at the same
 * instant may both remove it; that needs a crash inside a window of a few system calls.
 */
export class WriterLock {
  readonly holder: LockHolder;
  readonly path: string;
  readonly #content: string;
  #released = false;

  constructor(path: string, holder: LockHolder, content: string) {
    this.path = path;
    this.holder = holder;
    this.#content = content;
  }

  /** Removes the lock file if it is still ours (a takeover may have replaced it). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (readRaw(this.path) === this.#content) fs.rmSync(this.path, { force: true });
  }
}

export function tryAcquireWriterLock(paths: RunPaths, identity: ProcessIdentity, acquiredAt: string): LockAttempt {
  const holder: LockHolder = { ...identity, token: crypto.randomUUID(), acquired_at: acquiredAt };
  const content = `${JSON.stringify(holder)}\n`;
  let lastHolder: LockHolder | undefined;
  for (let round = 0; round < MAX_ACQUIRE_ROUNDS; round += 1) {
    if (linkNewFile(paths.lock, content)) return { kind: "acquired", lock: new WriterLock(paths.lock, holder, content), replaced: undefined };
    const raw = readRaw(paths.lock);
    if (raw === undefined) continue; // released in between: try again
    const existing = parseHolder(raw);
    // A lock file we cannot read was damaged (ours are never partial): treat it as stale.
    if (existing !== undefined && livenessOf(existing, identity) !== "dead") return { kind: "held", holder: existing };
    if (existing !== undefined) lastHolder = existing;
    const takeover = takeOverStale(paths, raw, content, identity);
    if (takeover.kind === "held") return takeover;
    if (takeover.kind === "acquired") {
      return { kind: "acquired", lock: new WriterLock(paths.lock, holder, content), replaced: existing };
    }
  }
  const current = parseHolder(readRaw(paths.lock) ?? "") ?? lastHolder;
  if (current !== undefined) return { kind: "held", holder: current };
  throw new BatonError("run_locked", `could not take the writer lock ${paths.lock} under contention`, {
    hint: "another process keeps taking and releasing it; try again",
  });
}

/**
 * Takes the writer lock of a run or throws `run_locked` naming the live holder.
 */
export function acquireWriterLock(paths: RunPaths, runId: string, identity: ProcessIdentity, acquiredAt: string): WriterLock {
  const attempt = tryAcquireWriterLock(paths, identity, acquiredAt);
  if (attempt.kind === "acquired") return attempt.lock;
  throw runLockedError(runId, attempt.holder, identity);
}

export function runLockedError(runId: string, holder: LockHolder, self: ProcessIdentity): BatonError {
  const where = holder.host === self.host ? "" : ` on ${holder.host}`;
  const hint =
    holder.host === self.host
      ? "wait for it to finish or stop that process; a lock left by a dead process is taken over automatically"
      : `a process on another host cannot be checked from here; if it is gone, delete runs/${runId}/writer.lock`;
  return new BatonError("run_locked", `run ${runId} is being written by pid ${holder.pid}${where} (since ${holder.acquired_at})`, {
    hint,
    details: { pid: holder.pid, host: holder.host, start_time: holder.start_time },
  });
}

/** Reads the lock file's holder, if there is a readable one. */
export function readLockHolder(lockPath: string): LockHolder | undefined {
  const raw = readRaw(lockPath);
  return raw === undefined ? undefined : parseHolder(raw);
}

function takeOverStale(
  paths: RunPaths,
  staleRaw: string,
  content: string,
  identity: ProcessIdentity,
): { kind: "acquired" } | { kind: "retry" } | { kind: "held"; holder: LockHolder } {
  if (!linkNewFile(paths.lockTakeover, content)) {
    const guardRaw = readRaw(paths.lockTakeover);
    const guard = guardRaw === undefined ? undefined : parseHolder(guardRaw);
    if (guard !== undefined && livenessOf(guard, identity) !== "dead") return { kind: "held", holder: guard };
    // The taker died mid-takeover (the accepted race is here, see WriterLock).
    if (guardRaw !== undefined && readRaw(paths.lockTakeover) === guardRaw) fs.rmSync(paths.lockTakeover, { force: true });
    return { kind: "retry" };
  }
  try {
    // Still the same stale holding? Then nobody else can change it while we hold the guard.
    if (readRaw(paths.lock) !== staleRaw) return { kind: "retry" };
    fs.rmSync(paths.lock, { force: true });
    return linkNewFile(paths.lock, content) ? { kind: "acquired" } : { kind: "retry" };
  } finally {
    if (readRaw(paths.lockTakeover) === content) fs.rmSync(paths.lockTakeover, { force: true });
  }
}

/** Creates `target` with `content` whole, or returns false when it already exists. */
function linkNewFile(target: string, content: string): boolean {
  const temporary = `${target}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  fs.writeFileSync(temporary, content, { flag: "wx" });
  try {
    fs.linkSync(temporary, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function readRaw(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function parseHolder(raw: string): LockHolder | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof value.pid !== "number" || typeof value.host !== "string" || typeof value.token !== "string") return undefined;
    return {
      pid: value.pid,
      start_time: typeof value.start_time === "number" ? value.start_time : null,
      host: value.host,
      token: value.token,
      acquired_at: typeof value.acquired_at === "string" ? value.acquired_at : "",
    };
  } catch {
    return undefined;
  }
}
