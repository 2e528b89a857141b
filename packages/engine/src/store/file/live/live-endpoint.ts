import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Longest unix socket path used. `sun_path` is 108 bytes on Linux and 104 on macOS, both
 * counting the terminating NUL: 103 fits both.
 */
export const SUN_PATH_MAX_BYTES = 103;

/** The socket's name in the run's directory. */
const SOCKET_NAME = "live.sock";
/** Written in the run's directory when the socket had to go elsewhere (a run dir too deep for sun_path): its path. */
const POINTER_NAME = "live.sock.path";

/** Where a run's writer listens for live readers, and the pointer file naming it when it is not in the run's dir. */
export type LiveEndpoint = { socket: string; pointer: string | undefined };

/**
 * Where the writer of the run in `runDir` listens: `<runDir>/live.sock`, or, when that path is
 * too long for a unix socket, `<tmpdir>/baton-live-<uid>/<hash of runDir>.sock` (a directory
 * of this user's, mode 0700, so no other user can plant a socket there) named in
 * `<runDir>/live.sock.path`. Undefined when neither fits: the run then has no live deltas.
 */
export function writerEndpoint(runDir: string, tmpDir: string = os.tmpdir()): LiveEndpoint | undefined {
  const direct = path.join(runDir, SOCKET_NAME);
  if (Buffer.byteLength(direct) <= SUN_PATH_MAX_BYTES) return { socket: direct, pointer: undefined };
  const dir = privateDir(tmpDir);
  if (dir === undefined) return undefined;
  // node:crypto only here, where it is needed: a reader or writer with a short path never loads it.
  const { createHash } = process.getBuiltinModule("node:crypto");
  const socket = path.join(dir, `${createHash("sha256").update(runDir).digest("hex").slice(0, 32)}.sock`);
  if (Buffer.byteLength(socket) > SUN_PATH_MAX_BYTES) return undefined;
  return { socket, pointer: path.join(runDir, POINTER_NAME) };
}

/** Where a reader finds the live socket of the run in `runDir`, or undefined when it has none. */
export function readerSocketPath(runDir: string): string | undefined {
  const direct = path.join(runDir, SOCKET_NAME);
  if (Buffer.byteLength(direct) <= SUN_PATH_MAX_BYTES) return direct;
  try {
    const named = fs.readFileSync(path.join(runDir, POINTER_NAME), "utf8").trim();
    return named === "" ? undefined : named;
  } catch {
    return undefined;
  }
}

/** Removes a run's socket and pointer file (the writer's own at close, or a dead writer's). */
export function removeEndpoint(endpoint: LiveEndpoint): void {
  fs.rmSync(endpoint.socket, { force: true });
  if (endpoint.pointer !== undefined) fs.rmSync(endpoint.pointer, { force: true });
}

/** Removes what a dead writer of the run in `runDir` left: its socket (only a socket) and pointer file. */
export function removeStaleEndpoint(runDir: string): void {
  const socket = readerSocketPath(runDir);
  try {
    if (socket !== undefined && fs.lstatSync(socket).isSocket()) fs.rmSync(socket, { force: true });
  } catch {
    // Gone already.
  }
  fs.rmSync(path.join(runDir, POINTER_NAME), { force: true });
}

/** Writes the pointer file whole (temp file, then rename): a reader never reads half a path. */
export function writePointer(endpoint: LiveEndpoint): void {
  if (endpoint.pointer === undefined) return;
  const temp = `${endpoint.pointer}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${endpoint.socket}\n`, { mode: 0o644 });
  fs.renameSync(temp, endpoint.pointer);
}

/** `<tmpDir>/baton-live-<uid>`, made if needed; undefined unless it is a directory of ours that only we can enter. */
function privateDir(tmpDir: string): string | undefined {
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(tmpDir, `baton-live-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
