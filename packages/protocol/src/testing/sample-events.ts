import { catalog, isEphemeralType, type BatonEvent, type EventData, type EventType } from "../catalog/index.ts";
import { PROTOCOL_VERSION } from "../envelope.ts";

/** A valid run id (`run_` + a ULID) for fixtures. */
export const SAMPLE_RUN_ID = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
export const SAMPLE_AT = "2026-11-29T10:00:00.123Z";

const usage = { input_tokens: 1200, output_tokens: 340, cache_read_tokens: 800, cache_write_tokens: 0 };

/**
 * Valid `data` for every catalog type, optional fields included. The mapped type makes a new
 * catalog type without a sample a compile error.
 */
export const SAMPLE_DATA: { [T in EventType]: EventData<T> } = {
  "run.created": {
    number: 7,
    task: "Fix the flaky date test",
    agent: "fake",
    model: "twin-1",
    workflow: "plan-approve-implement",
    origin: { run: "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1B", number: 6, stage: "implement", visit: 1, commit: "89abcdef" },
    repo: { root: "/tmp/repo", branch: "main", sha: "0123abcd", dirty: false },
    limits: { cost_usd: 2, time_ms: 600_000 },
    labels: { team: "core" },
  },
  "run.started": { attempt: 1, resumed: false, pid: 4242, host: "ci-7" },
  "run.paused": { reason: "approval", gate: "review" },
  "run.completed": {
    status: "succeeded",
    usage,
    cost_usd: 0.12,
    active_ms: 5400,
    duration_ms: 6100,
    commit: "89abcdef",
  },
  "run.failed": {
    error: { code: "provider_unreachable", message: "connection refused" },
    provider_error: "unreachable",
    usage,
    active_ms: 900,
  },
  "run.cancelled": { by: "human", reason: "wrong task" },
  log: { level: "warn", code: "config_default", message: "no model configured; using the agent's" },
  "workspace.ready": {
    path: "/tmp/repo/.baton/worktrees/7-fix-the-flaky-date-test",
    kind: "worktree",
    branch: "baton/7-fix-the-flaky-date-test",
    base: "main",
    base_branch: "main",
    base_sha: "0123abcd",
    included_dirty: ["notes.txt"],
  },
  "file.changed": { path: "src/date.ts", change: "modified" },
  "git.committed": {
    sha: "89abcdef",
    branch: "baton/7-fix-the-flaky-date-test",
    message: "Fix the flaky date test",
    files: [
      { path: "src/date.ts", change: "modified" },
      { path: "src/clock.ts", change: "renamed", from: "src/time.ts" },
    ],
    stage: "agent",
  },
  "agent.started": {
    session: "ses_1",
    agent: "fake",
    agent_version: "1.0.0",
    model: "twin-1",
    protocol_version: 1,
    capabilities: { loadSession: true },
  },
  "turn.started": { session: "ses_1", turn: 1, reason: "task" },
  "agent.delta": { session: "ses_1", kind: "text", text: "Look" },
  "agent.message": { session: "ses_1", turn: 1, text: "Looking at the test — café ☕." },
  "agent.thought": { session: "ses_1", turn: 1, text: "The clock is not injected." },
  "tool.started": {
    session: "ses_1",
    call: "c_3f9a1b2c4d5e",
    tool: "write",
    kind: "edit",
    title: "Write src/date.ts",
    input: { path: "src/date.ts" },
    target: "src/date.ts",
  },
  "tool.completed": {
    session: "ses_1",
    call: "c_3f9a1b2c4d5e",
    tool: "write",
    status: "completed",
    is_error: false,
    duration_ms: 41,
    exit_code: 0,
    timed_out: false,
    output_chars: 12,
    preview: "wrote 1 file",
    output_file: "outputs/c_3f9a1b2c4d5e.txt",
  },
  "plan.updated": {
    session: "ses_1",
    entries: [
      { content: "Inject the clock", status: "completed", priority: "high" },
      { content: "Run the tests", status: "pending" },
    ],
  },
  "permission.requested": {
    session: "ses_1",
    call: "c_3f9a1b2c4d5e",
    tool: "write",
    options: [{ id: "allow_once", kind: "allow_once", name: "Allow" }],
  },
  "permission.resolved": {
    session: "ses_1",
    call: "c_3f9a1b2c4d5e",
    decision: "allow",
    option_id: "allow_once",
    by: "policy",
    rule: "edits.allow",
  },
  "usage.updated": {
    session: "ses_1",
    basis: "delta",
    input_tokens: 1200,
    output_tokens: 340,
    cache_read_tokens: 800,
    cache_write_tokens: 0,
    cost_usd: 0.12,
    context_used: 2000,
    context_size: 200_000,
  },
  "turn.completed": { session: "ses_1", turn: 1, stop_reason: "end_turn", duration_ms: 5000, usage },
  "agent.finished": { session: "ses_1", turns: 1, usage, exit_code: 0 },
  "runner.event": { session: "ses_1", native_type: "_vendor/progress" },
  "budget.updated": { tokens: 1200, cost_usd: 0.03, tool_calls: 4, elapsed_ms: 61_000, limits: { timeout_ms: 600_000, tool_calls: 50 }, limit: "time", fraction: 0.1017 },
  "limit.warning": { limit: "time", used: 360_000, max: 600_000, fraction: 0.6, threshold: 0.6, notified: true },
  "limit.reached": { limit: "cost", used: 0.96, max: 1, fraction: 0.96, action: "handback" },
  "provider.error": { session: "ses_1", turn: 1, class: "rate_limited", status: 429, retry_after_ms: 5000, source: "error", message: "Internal error: API Error: 429 rate limit exceeded" },
  "retry.scheduled": { what: "turn", class: "rate_limited", attempt: 1, max_attempts: 3, delay_ms: 5000, retry_after_ms: 5000 },
  "model.switched": { session: "ses_1", from: "big-model", to: "small-model", model: "small-model", reason: "overloaded" },
  "stall.detected": { session: "ses_1", turn: 1, idle_ms: 120_000, action: "resend" },
  "repeat.detected": { session: "ses_1", tool: "execute", count: 5, action: "notice", notified: true },
  "handback.requested": { reason: "limit", limit: "cost" },
  "workflow.loaded": {
    name: "plan-approve-implement",
    file: ".baton/workflows/plan-approve-implement.dot",
    sha256: "5f2b0c…",
    goal: "Fix the flaky date test",
    nodes: [
      { id: "start", handler: "start" },
      { id: "plan", label: "Plan", handler: "agent" },
      { id: "approve", label: "Approve the plan", handler: "human" },
      { id: "exit", handler: "exit" },
    ],
    edges: [
      { from: "start", to: "plan" },
      { from: "plan", to: "approve" },
      { from: "approve", to: "exit", label: "[A] Approve" },
      { from: "approve", to: "plan", label: "[R] Revise", condition: "preferred_label=Revise" },
    ],
  },
  "stage.started": { stage: "plan", label: "Plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 3, agent: "fake", model: "twin-1" },
  "stage.completed": {
    stage: "plan",
    visit: 1,
    outcome: "succeeded",
    duration_ms: 5_400,
    usage,
    signals: { preferred_label: "approve", suggested_next_ids: ["approve"], context_updates: { plan_file: "PLAN.md" } },
    summary: "the agent ended its turn",
  },
  "stage.failed": {
    stage: "check",
    visit: 2,
    error: { code: "command_failed", message: "npm test exited with code 1" },
    class: "deterministic",
    will_retry: false,
    duration_ms: 1_250,
    usage,
    signals: { context_updates: { "command.exit_code": 1 } },
  },
  "stage.retrying": { stage: "check", visit: 2, attempt: 2, max_attempts: 3, delay_ms: 2_000 },
  "route.selected": { from: "check", to: "fix", label: "fix", condition: "outcome=failed", reason: "condition" },
  "context.updated": { updates: { "command.exit_code": 1, plan_file: null } },
  "checkpoint.saved": {
    stage: "plan",
    visit: 1,
    commit: "89abcdef",
    context: { plan_file: "PLAN.md" },
    next: "approve",
    visits: { start: 1, plan: 1 },
  },
  "parallel.started": {
    stage: "review",
    branches: [
      { branch: "b1", target: "review_security" },
      { branch: "b2", target: "review_tests", item: { name: "tests" } },
    ],
    join_policy: "wait_all",
    max_parallel: 2,
    base_sha: "89abcdef",
  },
  "branch.started": { stage: "review", branch: "b1", target: "review_security", path: "/tmp/repo/.baton/worktrees/7-fix-b1", git_branch: "baton/7-fix/b1" },
  "branch.completed": { stage: "review", branch: "b1", outcome: "succeeded", head_sha: "fedcba98", error: { code: "none", message: "" } },
  "parallel.completed": { stage: "review", outcome: "partially_succeeded", results: [{ branch: "b1", outcome: "succeeded", head_sha: "fedcba98" }, { branch: "b2", outcome: "failed" }] },
  "integration.completed": { stage: "merge", branch: "b1", sha: "76543210", git_branch: "baton/7-fix/b1" },
  "integration.conflicted": { stage: "merge", branch: "b2", files: ["src/date.ts"], git_branch: "baton/7-fix/b2" },
  "approval.requested": {
    gate: "approve",
    question: "Approve the plan",
    options: [
      { label: "Approve", to: "implement", key: "A" },
      { label: "Revise", to: "plan", key: "R" },
    ],
    freeform: false,
    default_choice: "Revise",
    timeout_ms: 86_400_000,
  },
  "approval.resolved": { gate: "approve", choice: "Approve", text: "looks right", approved: true, comment: "ship it", by: "ada", via: "cli" },
  "wait.started": { stage: "cool_down", until: "2026-11-29T10:15:00.123Z", duration_ms: 900_000 },
};

/**
 * One valid event of every catalog type, in catalog order, with seq 1, 2, … on the durable
 * ones (ephemeral ones have none). Not a plausible run: a fixture of shapes.
 */
export function sampleEvents(): BatonEvent[] {
  let seq = 0;
  return catalog.map((def) => {
    // Keys in envelope order (v, run, seq, at, type, data), as writers serialize them.
    const position = isEphemeralType(def.type) ? {} : { seq: (seq += 1) };
    const data = structuredClone(SAMPLE_DATA[def.type]);
    return { v: PROTOCOL_VERSION, run: SAMPLE_RUN_ID, ...position, at: SAMPLE_AT, type: def.type, data } as BatonEvent;
  });
}
