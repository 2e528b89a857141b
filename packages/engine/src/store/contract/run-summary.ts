import type { RunStatus } from "@baton/protocol/core";

/** A run as the catalog knows it: what `baton runs` lists. */
export type RunSummary = {
  id: string;
  number: number;
  status: RunStatus;
  task?: string;
  agent?: string;
  model?: string;
  created_at?: string;
  started_at?: string;
  ended_at?: string;
  /** Pid of the process that last started (or resumed) the run, from `run.started`. */
  pid?: number;
  /** Seq of the last durable event. */
  last_seq: number;
  /** Bytes of the log that are durable and indexed: the committed frontier followers read up to. */
  committed_bytes: number;
};
