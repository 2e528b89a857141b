// For tests in other processes than a run's writer: how many readers its live socket has.
import { readFileSync } from "node:fs";
import { readerSocketPath } from "../live-endpoint.ts";

/** `/proc/net/unix`'s state column (`St`) of a connected socket; a listening one is `01`. */
const CONNECTED = "03";

/**
 * How many readers are connected to the live socket of the run in `runDir`, read from
 * `/proc/net/unix` (Linux), where each connection the writer accepted is listed with the
 * socket's path. Deltas sent while no reader is connected are gone by design, so a test that
 * checks what a reader (`baton serve`, `baton events --follow --deltas`) shows of them waits
 * for its connection before the agent says anything.
 *
 * @example await waitFor("the follower to connect", () => liveReaderCount(runDir) >= 1);
 */
export function liveReaderCount(runDir: string): number {
  const socket = readerSocketPath(runDir);
  if (socket === undefined) return 0;
  // Columns: Num RefCount Protocol Flags Type St Inode Path (the path may hold spaces).
  return readFileSync("/proc/net/unix", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[5] === CONNECTED && fields.slice(7).join(" ") === socket).length;
}
