// The workflow part of the run-state fold: stage visits, the pending gate, the last checkpoint
// and the context, from the events of protocol v1's workflow catalog. Zod-free, like fold.ts.
import type { Envelope } from "./constants.ts";
import { definedFields } from "./defined-fields.ts";

/** One attempt of one stage visit, as its events tell it. */
export type StageVisitState = {
  stage: string;
  visit: number;
  attempt: number;
  handler: string;
  label?: string;
  /** The fan-out branch it ran in. */
  branch?: string;
  status: "running" | "succeeded" | "partially_succeeded" | "skipped" | "failed";
  started_at: string;
  ended_at?: string;
  duration_ms?: number;
  usage?: { input_tokens: number; output_tokens: number };
  /** The commit recorded for the visit (`git.committed` scoped to it: its checkpoint commit, or a salvage of its work). */
  commit?: string;
  error?: { code: string; message: string };
  will_retry?: boolean;
};

export type GateState = {
  gate: string;
  question: string;
  options: { label: string; to: string; key?: string }[];
  freeform: boolean;
  default_choice?: string;
  timeout_ms?: number;
  /** When it was asked (the event's time): a gate's timeout counts from here. */
  requested_at: string;
};

export type CheckpointState = {
  stage: string;
  visit: number;
  seq: number;
  commit?: string;
  next?: string;
  context: Record<string, unknown>;
  visits: Record<string, number>;
};

/** One branch of a fan-out, as its events tell it. */
export type BranchState = {
  branch: string;
  /** The stage it starts at. */
  target: string;
  /** A `foreach` branch's item. */
  item?: unknown;
  status: "pending" | "running" | "succeeded" | "partially_succeeded" | "skipped" | "failed" | "cancelled";
  git_branch?: string;
  path?: string;
  /** The head of its git branch when it ended (absent when it committed nothing). */
  head_sha?: string;
  error?: { code: string; message: string };
};

/** One visit of a fan-out (or `foreach`) stage and its branches, in branch order. */
export type FanOutState = {
  stage: string;
  visit: number;
  fan_in?: string;
  base_sha?: string;
  join_policy: string;
  max_parallel: number;
  branches: BranchState[];
  /** Set by `parallel.completed`: every branch has ended. */
  outcome?: string;
};

export type WorkflowState = {
  name?: string;
  nodes: { id: string; label?: string; handler: string }[];
  edges: { from: string; to: string; label?: string; condition?: string }[];
  /** Every stage attempt in the order it started. */
  stages: StageVisitState[];
  /** A gate that waits for an answer (absent once answered). */
  gate?: GateState;
  /** Every checkpoint, oldest first: resume takes the last, fork any. */
  checkpoints: CheckpointState[];
  context: Record<string, unknown>;
  /** Each wait stage visit's deadline, by {@link waitKey} (`stage@visit`): a resumed wait keeps it. */
  waits: Record<string, string>;
  /**
   * Every fan-out visit, in the order they started. A visit started again after a crash is the
   * same entry: branches that ended keep their end, so a resumed fan-out does not run them again.
   */
  fan_outs: FanOutState[];
};

/** A wait's key in {@link WorkflowState.waits}: `stage@visit`, and `/branch` inside a fan-out's branch. */
export function waitKey(scope: { id: string; visit: number; branch?: string | undefined }): string {
  return `${scope.id}@${scope.visit}${scope.branch === undefined ? "" : `/${scope.branch}`}`;
}

export function initialWorkflowState(): WorkflowState {
  return { nodes: [], edges: [], stages: [], checkpoints: [], context: {}, waits: {}, fan_outs: [] };
}

/** The attempts still running (started, not yet completed or failed). */
export function openStages(state: WorkflowState): StageVisitState[] {
  return state.stages.filter((stage) => stage.status === "running");
}

/** Applies a workflow event to `state` in place; other types are ignored. */
export function applyWorkflowEvent(state: WorkflowState, event: Envelope, data: Record<string, unknown>, warn: (text: string) => void): void {
  switch (event.type) {
    case "workflow.loaded":
      state.name = str(data["name"]);
      state.nodes = records(data["nodes"]).map((node) => definedFields({ id: str(node["id"]) ?? "", handler: str(node["handler"]) ?? "agent", label: str(node["label"]) }));
      state.edges = records(data["edges"]).map((edge) =>
        definedFields({ from: str(edge["from"]) ?? "", to: str(edge["to"]) ?? "", label: str(edge["label"]), condition: str(edge["condition"]) }),
      );
      break;
    case "stage.started": {
      const stage = str(data["stage"]) ?? "";
      const visit = num(data["visit"]) ?? 1;
      const branch = event.stage?.branch;
      if (findOpen(state, stage, visit, branch) !== undefined) warn(`stage ${stage} visit ${visit} started twice`);
      state.stages.push(
        definedFields({
          stage,
          visit,
          attempt: num(data["attempt"]) ?? 1,
          handler: str(data["handler"]) ?? "agent",
          status: "running" as const,
          started_at: event.at,
          label: str(data["label"]),
          branch,
        }),
      );
      break;
    }
    case "stage.completed":
    case "stage.failed": {
      const stage = str(data["stage"]) ?? "";
      const visit = num(data["visit"]) ?? 1;
      const open = findOpen(state, stage, visit, event.stage?.branch);
      if (open === undefined) {
        warn(`${event.type} for stage ${stage} visit ${visit} that is not running`);
        break;
      }
      open.status = event.type === "stage.failed" ? "failed" : outcomeOf(data["outcome"]);
      open.ended_at = event.at;
      const duration = num(data["duration_ms"]);
      if (duration !== undefined) open.duration_ms = duration;
      const usage = usageOf(data["usage"]);
      if (usage !== undefined) open.usage = usage;
      if (event.type === "stage.failed") {
        const error = record(data["error"]);
        open.error = { code: str(error["code"]) ?? "unknown", message: str(error["message"]) ?? "" };
        open.will_retry = data["will_retry"] === true;
      }
      break;
    }
    case "git.committed": {
      // A visit's checkpoint commit is made after its stage.completed (or stage.failed): it is
      // the commit of the visit's last attempt all the same.
      if (event.stage === undefined) break;
      const visit = findLatest(state, event.stage.id, event.stage.visit, event.stage.branch);
      const sha = str(data["sha"]);
      if (visit !== undefined && sha !== undefined) visit.commit = sha;
      break;
    }
    case "context.updated":
      // A branch's context is its own copy: it never changes the run's.
      if (event.stage?.branch !== undefined) break;
      for (const [key, value] of Object.entries(record(data["updates"]))) {
        if (value === null) delete state.context[key];
        else Object.defineProperty(state.context, key, { value, enumerable: true, writable: true, configurable: true });
      }
      break;
    case "checkpoint.saved":
      if (event.stage?.branch !== undefined) break;
      state.checkpoints.push(
        definedFields({
          stage: str(data["stage"]) ?? "",
          visit: num(data["visit"]) ?? 1,
          seq: event.seq ?? 0,
          context: { ...record(data["context"]) },
          visits: Object.fromEntries(Object.entries(record(data["visits"])).filter((entry): entry is [string, number] => typeof entry[1] === "number")),
          commit: str(data["commit"]),
          next: str(data["next"]),
        }),
      );
      break;
    case "approval.requested":
      state.gate = definedFields({
        gate: str(data["gate"]) ?? "",
        question: str(data["question"]) ?? "",
        options: records(data["options"]).map((option) => definedFields({ label: str(option["label"]) ?? "", to: str(option["to"]) ?? "", key: str(option["key"]) })),
        freeform: data["freeform"] === true,
        default_choice: str(data["default_choice"]),
        timeout_ms: num(data["timeout_ms"]),
        requested_at: event.at,
      });
      break;
    case "wait.started": {
      const until = str(data["until"]);
      if (until !== undefined && event.stage !== undefined) {
        Object.defineProperty(state.waits, waitKey(event.stage), { value: until, enumerable: true, writable: true, configurable: true });
      }
      break;
    }
    case "approval.resolved":
      if (state.gate === undefined || state.gate.gate !== str(data["gate"])) warn(`approval.resolved for gate ${String(data["gate"])} that is not waiting`);
      delete state.gate;
      break;
    case "parallel.started":
    case "branch.started":
    case "branch.completed":
    case "parallel.completed":
      applyFanOutEvent(state, event, data, warn);
      break;
    default:
      break;
  }
}

function applyFanOutEvent(state: WorkflowState, event: Envelope, data: Record<string, unknown>, warn: (text: string) => void): void {
  const stage = str(data["stage"]) ?? "";
  const visit = event.stage?.visit ?? 1;
  const known = state.fan_outs.findLast((fanOut) => fanOut.stage === stage && fanOut.visit === visit);
  if (event.type === "parallel.started") {
    const ended = new Map((known?.branches ?? []).filter((b) => b.status !== "pending" && b.status !== "running").map((b) => [b.branch, b]));
    const fanOut: FanOutState = definedFields({
      stage,
      visit,
      fan_in: str(data["fan_in"]),
      base_sha: str(data["base_sha"]) ?? known?.base_sha,
      join_policy: str(data["join_policy"]) ?? "wait_all",
      max_parallel: num(data["max_parallel"]) ?? 1,
      branches: records(data["branches"]).map(
        (b) => ended.get(str(b["branch"]) ?? "") ?? definedFields({ branch: str(b["branch"]) ?? "", target: str(b["target"]) ?? "", item: b["item"], status: "pending" as const }),
      ),
    });
    if (known === undefined) state.fan_outs.push(fanOut);
    else state.fan_outs[state.fan_outs.indexOf(known)] = fanOut;
    return;
  }
  if (known === undefined) {
    warn(`${event.type} for stage ${stage} visit ${visit} that started no fan-out`);
    return;
  }
  if (event.type === "parallel.completed") {
    known.outcome = str(data["outcome"]) ?? "failed";
    return;
  }
  const id = str(data["branch"]) ?? "";
  const branch = known.branches.find((b) => b.branch === id);
  if (branch === undefined) {
    warn(`${event.type} for branch ${id} that fan-out ${stage} does not have`);
    return;
  }
  if (event.type === "branch.started") {
    branch.status = "running";
    const gitBranch = str(data["git_branch"]);
    const path = str(data["path"]);
    if (gitBranch !== undefined) branch.git_branch = gitBranch;
    if (path !== undefined) branch.path = path;
    return;
  }
  branch.status = branchOutcomeOf(data["outcome"]);
  const head = str(data["head_sha"]);
  if (head !== undefined) branch.head_sha = head;
  const error = data["error"];
  if (error !== undefined) branch.error = { code: str(record(error)["code"]) ?? "unknown", message: str(record(error)["message"]) ?? "" };
}

function branchOutcomeOf(value: unknown): BranchState["status"] {
  return value === "succeeded" || value === "partially_succeeded" || value === "skipped" || value === "cancelled" ? value : "failed";
}

function findOpen(state: WorkflowState, stage: string, visit: number, branch: string | undefined): StageVisitState | undefined {
  for (let i = state.stages.length - 1; i >= 0; i -= 1) {
    const candidate = state.stages[i]!;
    if (candidate.stage === stage && candidate.visit === visit && candidate.branch === branch && candidate.status === "running") return candidate;
  }
  return undefined;
}

/** The last attempt of a visit, running or ended. */
function findLatest(state: WorkflowState, stage: string, visit: number, branch: string | undefined): StageVisitState | undefined {
  for (let i = state.stages.length - 1; i >= 0; i -= 1) {
    const candidate = state.stages[i]!;
    if (candidate.stage === stage && candidate.visit === visit && candidate.branch === branch) return candidate;
  }
  return undefined;
}

function outcomeOf(value: unknown): StageVisitState["status"] {
  return value === "partially_succeeded" || value === "skipped" ? value : "succeeded";
}

function usageOf(value: unknown): StageVisitState["usage"] {
  const usage = record(value);
  const input = num(usage["input_tokens"]);
  const output = num(usage["output_tokens"]);
  return input === undefined || output === undefined ? undefined : { input_tokens: input, output_tokens: output };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record) : [];
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
