import net from "node:net";
import { ENDING_SIGNALS, type EndingSignal } from "./interrupts.ts";

/** The variable in which the launcher names the file descriptor of its link to this process. */
export const LAUNCHER_FD_VARIABLE = "BATON_LAUNCHER_FD";

export type LauncherHandlers = {
  /** The launcher received an ending signal and passes it on. */
  signal: (signal: EndingSignal) => void;
  /** The launcher is gone. */
  gone: () => void;
};

/**
 * This process's end of its link to the launcher (bin/baton.js, which starts Baton again on
 * Node 24 when run by an older Node): a socket whose other end only the launcher holds. The
 * launcher writes the name of each ending signal it receives, one per line. The link's end
 * means the launcher is gone, whatever killed it (`kill -9` included): Linux gives no
 * parent-death signal to a Node process, and a Baton left alone would finish its run
 * unattended, its output going nowhere.
 *
 * Returns false when the launcher did not start this process. The variable is removed from
 * the environment, so that nothing this process starts (agents, the runs `baton serve`
 * starts) takes the link for its own.
 */
export function watchLauncher(env: Record<string, string | undefined>, handlers: LauncherHandlers): boolean {
  const value = env[LAUNCHER_FD_VARIABLE];
  if (value === undefined) return false;
  delete env[LAUNCHER_FD_VARIABLE];
  const fd = Number(value);
  if (!Number.isInteger(fd) || fd < 3) return false;
  const link = new net.Socket({ fd, readable: true, writable: false });
  // The link never keeps this process alive: it only watches.
  link.unref();
  link.setEncoding("utf8");
  let partial = "";
  link.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (isEndingSignal(line)) handlers.signal(line);
  });
  // 'close' follows the end of the stream and any error on it: either way the launcher is gone.
  link.on("error", () => {});
  link.once("close", handlers.gone);
  return true;
}

function isEndingSignal(name: string): name is EndingSignal {
  return (ENDING_SIGNALS as readonly string[]).includes(name);
}
