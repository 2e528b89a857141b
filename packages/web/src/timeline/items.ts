// The items a run's timeline is made of. Each durable event belongs to exactly one item
// (`seqs` lists them), so a view can prove it shows every event once.

export type ToolItem = {
  kind: "tool";
  seqs: number[];
  call: string;
  tool: string;
  toolKind?: string;
  title?: string;
  status: "running" | "completed" | "failed" | "cancelled";
  isError: boolean;
  durationMs?: number;
  exitCode?: number;
  timedOut: boolean;
  preview?: string;
  outputChars?: number;
  /** True when the complete output was written to the trace store. */
  hasOutput: boolean;
};

export type PlanEntry = { content: string; status: string; priority?: string };

export type PermissionItem = {
  kind: "permission";
  seqs: number[];
  call: string;
  tool: string;
  decision?: string;
  by?: string;
  rule?: string;
};

export type EndItem = {
  kind: "end";
  seqs: number[];
  status: string;
  /** What stopped a stopped run, in words: `the time limit`, `the model provider (overloaded)`. */
  stoppedBy?: string;
  /** Whether the agent answered the hand-back with a turn that ended well. */
  handedBack?: boolean;
  /** The class of the provider failure that failed the run. */
  providerError?: string;
  errorCode?: string;
  message?: string;
  costUsd?: number;
  durationMs?: number;
};

/** The stage visit an item's events were emitted in (the envelope's `stage`), and the fan-out branch. */
export type StageRef = { id: string; visit: number; branch?: string };

/** A one-line fact: lifecycle, turns, usage, logs, and any type this UI does not know. */
export type NoteItem = { kind: "note"; seqs: number[]; type: string; text: string; tone: "dim" | "info" | "warn" | "error"; known: boolean };

/** Every item of a workflow run's stage names it: the timeline is grouped by stage. */
export type TimelineItem = (
  | { kind: "message"; seqs: number[]; text: string }
  | { kind: "thought"; seqs: number[]; text: string }
  | { kind: "plan"; seqs: number[]; entries: PlanEntry[] }
  | ToolItem
  | PermissionItem
  | EndItem
  | NoteItem
) & { stage?: StageRef };

/** Text still streaming in `agent.delta`s, shown until its complete message replaces it. */
export type StreamingText = { session: string; kind: "text" | "thought"; text: string };
