import { EXIT } from "../context.ts";

/** How a run ended, as far as its exit code goes. */
type Ended = { status: "succeeded" | "stopped" | "failed" | "cancelled"; stoppedBy?: string | undefined };

/** 0 succeeded, 3 stopped (124 at the timeout), 130 cancelled, 1 failed. */
export function exitCodeOf(result: Ended): number {
  switch (result.status) {
    case "succeeded":
      return EXIT.succeeded;
    case "stopped":
      return result.stoppedBy === "time" ? EXIT.timedOut : EXIT.stopped;
    case "cancelled":
      return EXIT.cancelled;
    default:
      return EXIT.failed;
  }
}
