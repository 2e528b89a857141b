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

export type PermissionOption = { id: string; kind: string; name: string };

export type PermissionItem = {
  kind: "permission";
  seqs: number[];
  call: string;
  tool: string;
  decision?: string;
  by?: string;
  rule?: string;
  /** The question waits for a person (an `ask` rule), for at most `timeoutMs`. */
  awaitingPerson?: boolean;
  timeoutMs?: number;
  /** Who answered, when a person did. */
  who?: string;
  /** The answers the agent offered (ACP permission options). */
  options?: PermissionOption[];
};

/** One field of a question's form, as `question.asked` records it. */
export type QuestionField = {
  name: string;
  type: string;
  required: boolean;
  title?: string;
  description?: string;
  options?: Array<{ value: string; title?: string; description?: string }>;
  min?: number;
  max?: number;
};

/** A question the agent asked through ACP elicitation: its form while it waits, what the agent was told once answered. */
export type QuestionItem = {
  kind: "question";
  seqs: number[];
  id: string;
  message: string;
  fields: QuestionField[];
  /** The question waits for a person, for at most `timeoutMs`. */
  awaitingPerson?: boolean;
  timeoutMs?: number;
  /** `accept`, `decline` or `cancel`, once answered. */
  action?: string;
  content?: Record<string, unknown>;
  by?: string;
  who?: string;
  rule?: string;
  reason?: string;
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
  | QuestionItem
  | EndItem
  | NoteItem
) & { stage?: StageRef; turn?: number };

/** Text still streaming in `agent.delta`s, shown until its complete message replaces it. */
export type StreamingText = { session: string; kind: "text" | "thought"; text: string };
