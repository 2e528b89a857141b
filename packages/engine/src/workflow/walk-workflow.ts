import { definedFields, type StageScope } from "@baton/protocol/core";
import { isBatonError } from "../errors.ts";
import type { RunSink } from "../run/run-sink.ts";
import { isRetryable, type FailureClass, type StageHalt, type StageOutcome, type StageResult, type StageSignals } from "./stage-result.ts";
import type { RouteChoice, WalkNode, WorkflowRouter } from "./workflow-router.ts";

/** One attempt of one stage visit, as a handler gets it. */
export type StageRun = {
  node: WalkNode;
  /** The run's sink scoped to this visit: every event the handler appends names the stage. */
  sink: RunSink;
  scope: StageScope;
  attempt: number;
  context: Readonly<Record<string, unknown>>;
  /** How the stage before this one ended (what a conditional routes on). */
  previous: { outcome: StageOutcome; signals?: StageSignals | undefined };
  signal: AbortSignal;
};

export type StageRunner = (stage: StageRun) => Promise<StageResult>;

/** Where a walk starts: a fresh run at the start stage, or a resumed one after its last checkpoint. */
export type WalkStart = {
  node: string;
  context: Record<string, unknown>;
  visits: Record<string, number>;
  previous: { outcome: StageOutcome; signals?: StageSignals | undefined };
  /** A visit left open by a pause (a gate waiting for its answer): it goes on, it is not started again. */
  openVisit?: number;
};

export type WalkEnd =
  | { kind: "exited"; stage: string; goalFailures: string[] }
  /** A branch's walk reached its fan-in: how its last stage ended is the branch's outcome. */
  | { kind: "joined"; stage: string; outcome: StageOutcome }
  | { kind: "halted"; stage: string; halt: StageHalt }
  | { kind: "failed"; stage: string; error: { code: string; message: string }; class: FailureClass };

export type WalkOptions = {
  router: WorkflowRouter;
  sink: RunSink;
  handlers: Readonly<Record<string, StageRunner | undefined>>;
  /** Commits the visit's changes on the run's branch; the sha, or undefined when nothing changed. */
  checkpointCommit: (stage: StageRun) => Promise<string | undefined>;
  start: WalkStart;
  signal: AbortSignal;
  /** Waits between attempts (a cancel cuts it short). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Set when the walk is one branch of a fan-out: its events name the branch, it saves no
   * checkpoint of the run's (its commits on its own git branch and its `branch.completed` are
   * its record), and it ends when its route reaches the fan-in.
   */
  branch?: { id: string; fanIn: string };
};

/** The first retry waits this long, each next one twice as long, up to {@link RETRY_MAX_MS}. */
export const RETRY_BASE_MS = 500;
export const RETRY_MAX_MS = 30_000;
/** The same failure (stage, class, message) this many times stops the run as stuck, unless the graph says otherwise. */
export const DEFAULT_SIGNATURE_LIMIT = 3;

/**
 * Handlers that make one attempt whatever `max_retries` says: nothing they do can pass on a
 * second try (a fan-out's branches retry their own stages; its fan-in's merges end the same way).
 */
const SINGLE_ATTEMPT = new Set(["start", "exit", "conditional", "human", "parallel", "foreach", "fan_in"]);

/** What a branch may not walk into: it ends at its fan-in, and fan-outs do not nest. */
const OUTSIDE_A_BRANCH = new Set(["exit", "parallel", "foreach", "fan_in"]);

/**
 * Walks a workflow from `start` until it exits, halts (cancel, stop, pause) or fails: each
 * stage visit is `stage.started` … one `stage.completed` or `stage.failed` (retried with
 * backoff while attempts last), its changes committed, its context updates recorded, the
 * route chosen and recorded, and a checkpoint saved. Deterministic given the handlers'
 * results: replaying a log reproduces every `route.selected`.
 */
export async function walkWorkflow(options: WalkOptions): Promise<WalkEnd> {
  const { router, sink, branch } = options;
  const context = { ...options.start.context };
  const visits = { ...options.start.visits };
  const signatures = new Map<string, number>();
  let previous = options.start.previous;
  let current = options.start.node;
  let openVisit = options.start.openVisit;
  let last = current;
  for (;;) {
    if (branch !== undefined && current === branch.fanIn) return { kind: "joined", stage: last, outcome: previous.outcome };
    // A cancel between two stages starts no new one (a cancelled branch stops where it is).
    if (options.signal.aborted) return { kind: "halted", stage: current, halt: { kind: "cancelled" } };
    const node = router.node(current);
    if (node === undefined) return { kind: "failed", stage: current, class: "structural", error: { code: "unknown_stage", message: `the workflow has no stage "${current}"` } };
    if (branch !== undefined && OUTSIDE_A_BRANCH.has(node.handler)) {
      return { kind: "failed", stage: current, class: "structural", error: { code: "branch_left_fan_out", message: `branch ${branch.id} reached ${node.handler} stage "${current}" before its fan-in "${branch.fanIn}": a branch ends at its fan-in, and fan-outs do not nest` } };
    }
    last = current;
    const visit = openVisit ?? (visits[current] ?? 0) + 1;
    const bound = node.max_visits ?? router.graph.max_node_visits;
    if (openVisit === undefined && bound !== undefined && bound > 0 && visit > bound) {
      return { kind: "failed", stage: current, class: "structural", error: { code: "max_visits", message: `stage "${current}" would run a ${ordinal(visit)} time, past its max_visits of ${bound}` } };
    }
    visits[current] = visit;
    const scope: StageScope = definedFields({ id: current, visit, branch: branch?.id });
    const stageSink = sink.inStage(scope);
    const runner = options.handlers[node.handler];
    if (runner === undefined) {
      return { kind: "failed", stage: current, class: "structural", error: { code: "unknown_handler", message: `stage "${current}" has handler ${node.handler}, which Baton does not know` } };
    }
    const maxAttempts = SINGLE_ATTEMPT.has(node.handler) ? 1 : (node.max_retries ?? router.graph.default_max_retries ?? 0) + 1;
    let result: StageResult | undefined;
    let run: StageRun | undefined;
    for (let attempt = 1; result === undefined; attempt += 1) {
      run = { node, sink: stageSink, scope, attempt, context, previous, signal: options.signal };
      if (openVisit === undefined) {
        stageSink.append("stage.started", definedFields({ stage: current, label: node.label, handler: node.handler, visit, attempt, max_attempts: maxAttempts }));
      }
      openVisit = undefined;
      const began = performance.now();
      let attempted = await runner(run).catch(thrownResult);
      // A paused gate's visit stays open until its answer arrives (in a later process). A
      // branch cannot pause: the run's other branches go on in this process.
      if (attempted.halt?.kind === "paused") {
        if (branch === undefined) return { kind: "halted", stage: current, halt: attempted.halt };
        attempted = { outcome: "failed", class: "structural", error: gateInBranchError(current, branch.id) };
      }
      const duration_ms = Math.round(performance.now() - began);
      const common = definedFields({ stage: current, visit, duration_ms, usage: attempted.usage, signals: attempted.signals, ...attempted.command });
      if (attempted.outcome !== "failed") {
        stageSink.append("stage.completed", definedFields({ ...common, outcome: attempted.outcome, summary: attempted.summary }));
        result = attempted;
        break;
      }
      const willRetry = attempt < maxAttempts && isRetryable(attempted) && !options.signal.aborted;
      stageSink.append("stage.failed", { ...common, error: attempted.error ?? { code: "stage_failed", message: "the stage failed" }, class: attempted.class ?? "deterministic", will_retry: willRetry });
      if (!willRetry) {
        result = attempted;
        break;
      }
      const delay_ms = Math.min(RETRY_BASE_MS * 2 ** (attempt - 1), RETRY_MAX_MS);
      stageSink.append("stage.retrying", { stage: current, visit, attempt: attempt + 1, max_attempts: maxAttempts, delay_ms });
      await options.sleep(delay_ms, options.signal);
    }
    const commit = (await options.checkpointCommit(run!)) ?? result.commit;
    const updates = result.signals?.context_updates;
    if (updates !== undefined && Object.keys(updates).length > 0) {
      for (const [key, value] of Object.entries(updates)) {
        if (value === null) delete context[key];
        else context[key] = value;
      }
      stageSink.append("context.updated", { updates });
    }
    if (result.halt !== undefined) return { kind: "halted", stage: current, halt: result.halt };
    if (result.outcome === "failed") {
      const signature = `${current}\u0000${result.class ?? ""}\u0000${normalizeMessage(result.error?.message ?? "")}`;
      const seen = (signatures.get(signature) ?? 0) + 1;
      signatures.set(signature, seen);
      const limit = router.graph.loop_restart_signature_limit ?? DEFAULT_SIGNATURE_LIMIT;
      if (seen >= limit) {
        return { kind: "failed", stage: current, class: result.class ?? "deterministic", error: { code: "stuck", message: `stage "${current}" failed the same way ${seen} times (${result.error?.message ?? "failed"}): the run is stuck` } };
      }
    }
    if (node.handler === "exit" && branch === undefined) {
      stageSink.append("checkpoint.saved", definedFields({ stage: current, visit, commit, context: { ...context }, visits: { ...visits } }));
      return { kind: "exited", stage: current, goalFailures: goalFailures(router, sink) };
    }
    const route: Route | undefined = result.next === undefined ? chooseRoute(router, node, { outcome: result.outcome, signals: result.signals, context }) : { to: result.next, reason: "join" };
    if (route === undefined) {
      const error =
        result.outcome === "failed"
          ? { code: result.error?.code ?? "stage_failed", message: `stage "${current}" failed (${result.error?.message ?? "no reason given"}) and no edge, retry_target or fallback_retry_target takes a failure` }
          : { code: "no_route", message: `no edge leaves stage "${current}" for outcome ${result.outcome}${result.signals?.preferred_label === undefined ? "" : ` and label "${result.signals.preferred_label}"`}` };
      return { kind: "failed", stage: current, class: result.class ?? "structural", error };
    }
    stageSink.append("route.selected", definedFields({ from: current, to: route.to, label: route.label, condition: route.condition, reason: route.reason }));
    if (branch === undefined) stageSink.append("checkpoint.saved", definedFields({ stage: current, visit, commit, context: { ...context }, next: route.to, visits: { ...visits } }));
    previous = definedFields({ outcome: result.outcome, signals: result.signals });
    current = route.to;
  }
}

type Route = Omit<RouteChoice, "reason"> & { reason: RouteChoice["reason"] | "retry_target" | "join" };

/** Why a gate inside a fan-out's branch fails: nobody can answer it while its sibling branches run. */
export function gateInBranchError(gate: string, branch: string): { code: string; message: string } {
  return { code: "gate_in_branch", message: `gate "${gate}" in branch ${branch} cannot pause the run while other branches work: run with --auto-approve, or move the gate after the fan-in` };
}

/**
 * A handler that threw instead of returning (git refused, a prompt file vanished) fails its
 * stage like any failure, so its `stage.started` is closed and the workflow can route on it.
 */
function thrownResult(error: unknown): StageResult {
  const info = isBatonError(error) ? { code: error.code, message: error.toLine() } : { code: "internal", message: `Baton failed in the stage: ${error instanceof Error ? error.message : String(error)}` };
  return { outcome: "failed", class: "deterministic", error: info };
}

/**
 * The edge after a stage. A failure takes only an edge that names it (a condition, the
 * preferred label, a suggested id), else the stage's or the graph's retry target: an
 * unconditional edge is the way on for work that succeeded, never for a failure.
 */
function chooseRoute(router: WorkflowRouter, node: WalkNode, input: Parameters<WorkflowRouter["route"]>[1]): Route | undefined {
  const choice = router.route(node.id, input);
  if (input.outcome !== "failed") return choice;
  if (choice !== undefined && choice.reason !== "unconditional") return choice;
  const target = node.retry_target ?? node.fallback_retry_target ?? router.graph.retry_target ?? router.graph.fallback_retry_target;
  return target === undefined || router.node(target) === undefined ? undefined : { to: target, reason: "retry_target" };
}

/**
 * The goal gates whose last visit did not succeed (partially, with `allow_partial`), from the
 * run's folded events: visits of earlier attempts of a resumed run count too.
 */
function goalFailures(router: WorkflowRouter, sink: RunSink): string[] {
  const last = new Map<string, string>();
  for (const visit of sink.state.workflow.stages) if (visit.branch === undefined && visit.status !== "running") last.set(visit.stage, visit.status);
  const failures: string[] = [];
  for (const [stage, status] of last) {
    const node = router.node(stage);
    if (node?.goal_gate !== true) continue;
    if (!(status === "succeeded" || (status === "partially_succeeded" && node.allow_partial))) failures.push(stage);
  }
  return failures;
}

/** A failure message without what changes from one attempt to the next (numbers, hex ids, paths of temp folders). */
export function normalizeMessage(message: string): string {
  return message.toLowerCase().replace(/0x[0-9a-f]+|\b[0-9a-f]{7,}\b/g, "#").replace(/\d+/g, "#").replace(/\s+/g, " ").trim();
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}
