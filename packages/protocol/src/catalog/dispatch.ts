import { z } from "zod";
import { defineEvent } from "./shared.ts";

export const workerLost = defineEvent(
  "worker.lost",
  "The worker running this dispatched run stopped heartbeating and its lease expired; another worker took the run over (a new epoch fences the lost one off). What follows: the run continues from its last checkpoint, or fails `worker_lost`.",
  z.looseObject({
    /** The lost worker's lease owner name (host, pid, random part). */
    previous_owner: z.string(),
    /** The lost worker's lease epoch; every event it stored carries it. */
    epoch: z.number().int().min(0),
    /** The last seq the lost worker committed. */
    last_seq: z.number().int().min(0),
    /** The worker that took the run over. */
    owner: z.string(),
  }),
);
