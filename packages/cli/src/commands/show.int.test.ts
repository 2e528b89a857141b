import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { test } from "node:test";
import { promisify } from "node:util";
import { openStore } from "@baton/engine/store";
import type { StageScope } from "@baton/protocol/core";
import { SAMPLE_DATA, testTempDir } from "@baton/protocol/testing";
import type { CliContext } from "../context.ts";
import { showCommand } from "./show.ts";

type Event = [type: string, data: Record<string, unknown>, stage?: StageScope];

/** A git repository with `.baton/` holding one run of `events`, after run.created. */
async function repoWithRun(prefix: string, events: Event[], created: Record<string, unknown> = {}): Promise<string> {
  const repo = await testTempDir(prefix);
  await promisify(execFile)("git", ["init", "-q"], { cwd: repo });
  await mkdir(join(repo, ".baton"));
  await using store = await openStore(join(repo, ".baton"));
  await using writer = await store.createRun({ task: "Fix the flaky date test", agent: "fake", repo: { root: repo, dirty: false }, ...created });
  for (const [type, data, stage] of events) writer.append(type, data, stage);
  await writer.flush();
  return repo;
}

async function show(repo: string, json = false): Promise<string> {
  let out = "";
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const ctx: CliContext = { cwd: repo, env: {}, stdout, stderr: stdout, signal: new AbortController().signal, stdoutClosed: new AbortController().signal };
  assert.equal(await showCommand(ctx, "1", { json }), 0);
  return out;
}

const usage = { input_tokens: 1200, output_tokens: 340 };
const started: Event = ["run.started", SAMPLE_DATA["run.started"]];

test("show names what stopped a run and counts its provider errors, retries, stalls, loops and hand-back", async () => {
  const repo = await repoWithRun("cli-show-stopped-", [
    started,
    ["provider.error", SAMPLE_DATA["provider.error"]],
    ["retry.scheduled", SAMPLE_DATA["retry.scheduled"]],
    ["provider.error", { ...SAMPLE_DATA["provider.error"], class: "overloaded" }],
    ["retry.scheduled", { ...SAMPLE_DATA["retry.scheduled"], class: "overloaded", attempt: 2 }],
    ["provider.error", SAMPLE_DATA["provider.error"]],
    ["model.switched", SAMPLE_DATA["model.switched"]],
    ["stall.detected", SAMPLE_DATA["stall.detected"]],
    ["repeat.detected", SAMPLE_DATA["repeat.detected"]],
    ["limit.warning", SAMPLE_DATA["limit.warning"]],
    ["limit.reached", SAMPLE_DATA["limit.reached"]],
    ["handback.requested", SAMPLE_DATA["handback.requested"]],
    ["run.completed", { status: "stopped", stopped_by: "cost", handed_back: true, usage, active_ms: 10, duration_ms: 20 }],
  ]);
  const text = await show(repo);
  assert.match(text, /^status: {4}stopped by the cost limit$/m);
  assert.match(
    text,
    /^incidents: 3 provider errors \(rate_limited, overloaded\) · 2 retries · 1 model switch · 1 stall · 1 loop · 1 limit warning · hand-back asked \(cost limit\), handed back$/m,
  );

  const json = JSON.parse(await show(repo, true)) as Record<string, unknown>;
  assert.equal(json["status"], "stopped");
  assert.equal(json["stopped_by"], "cost");
  assert.deepEqual(json["reliability"], {
    provider_errors: 3,
    provider_error_classes: ["rate_limited", "overloaded"],
    retries: 2,
    model_switches: 1,
    stalls: 1,
    repeats: 1,
    limit_warnings: 1,
    handback: { reason: "limit", limit: "cost" },
    handed_back: true,
  });
  // The shape it had keeps its fields.
  for (const key of ["run", "number", "task", "agent", "usage", "counts", "events_file", "warnings"]) assert.ok(key in json, key);
});

test("show names the provider that stopped or failed a run; a quiet run has no incidents line", async () => {
  const stopped = await repoWithRun("cli-show-provider-", [
    started,
    ["provider.error", { ...SAMPLE_DATA["provider.error"], class: "overloaded" }],
    ["run.completed", { status: "stopped", stopped_by: "provider", provider_error: "overloaded", usage, active_ms: 10, duration_ms: 20 }],
  ]);
  assert.match(await show(stopped), /^status: {4}stopped by the model provider \(overloaded\)$/m);
  const stoppedJson = JSON.parse(await show(stopped, true)) as Record<string, unknown>;
  assert.equal(stoppedJson["provider_error"], "overloaded");

  const failed = await repoWithRun("cli-show-failed-", [started, ["run.failed", SAMPLE_DATA["run.failed"]]]);
  assert.match(await show(failed), /^status: {4}failed \(provider_unreachable: connection refused\) · model provider: unreachable$/m);
  assert.doesNotMatch(await show(failed), /^incidents:/m);
  const failedJson = JSON.parse(await show(failed, true)) as Record<string, unknown>;
  assert.equal(failedJson["provider_error"], "unreachable");
  assert.deepEqual(failedJson["reliability"], { provider_errors: 0, provider_error_classes: [], retries: 0, model_switches: 0, stalls: 0, repeats: 0, limit_warnings: 0 });
});

test("show lists a workflow run's stage visits with outcome, duration, usage and commit, the gate it waits at, its last checkpoint and its origin", async () => {
  const plan = { id: "plan", visit: 1 };
  const check = { id: "check", visit: 1 };
  const gate = { id: "approve", visit: 1 };
  const origin = { run: "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A", number: 4, stage: "build", visit: 1, commit: "fedcba9876543210" };
  const repo = await repoWithRun(
    "cli-show-workflow-",
    [
      started,
      ["workflow.loaded", SAMPLE_DATA["workflow.loaded"]],
      ["workspace.ready", { kind: "worktree", path: "/r/.baton/worktrees/1-fix", branch: "baton/1-fix", base: "main", base_sha: "abcdef" }],
      ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 2 }, plan],
      ["stage.failed", { stage: "plan", visit: 1, error: { code: "interrupted", message: "the process ended" }, class: "transient_infra", will_retry: false, duration_ms: 1_500 }, plan],
      ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 2 }, plan],
      ["stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 5_400, usage: { input_tokens: 1200, output_tokens: 340 } }, plan],
      ["git.committed", { sha: "0123456789abcdef", branch: "baton/1-fix", message: "plan: Fix", files: [{ path: "PLAN.md", change: "added" }], stage: "plan" }, plan],
      ["checkpoint.saved", { stage: "plan", visit: 1, commit: "0123456789abcdef", context: {}, next: "check", visits: { plan: 1 } }, plan],
      ["stage.started", { stage: "check", handler: "command", visit: 1, attempt: 1, max_attempts: 1 }, check],
      ["stage.completed", { stage: "check", visit: 1, outcome: "succeeded", duration_ms: 40, exit_code: 0 }, check],
      ["checkpoint.saved", { stage: "check", visit: 1, context: {}, next: "approve", visits: { plan: 1, check: 1 } }, check],
      ["stage.started", { stage: "approve", handler: "human", visit: 1, attempt: 1, max_attempts: 1 }, gate],
      ["approval.requested", SAMPLE_DATA["approval.requested"], gate],
      ["run.paused", { reason: "gate", gate: "approve" }],
    ],
    { origin },
  );
  const text = await show(repo);
  assert.match(text, /^workflow: {2}plan-approve-implement · 4 stages$/m);
  assert.match(text, /^forked: {4}run 4 at build@1 \(fedcba987654\)$/m);
  assert.match(text, /^gate: {6}approve waits: "Approve the plan" · Approve \(A\), Revise \(R\) · baton approve 1 · baton reject 1 · baton answer 1 CHOICE$/m);
  assert.match(text, /^checkpoint: check@1 · next approve$/m);
  assert.match(text, /^commit: {4}0123456789ab on baton\/1-fix · the checkpoint of plan@1$/m, "the branch's head is its last checkpoint commit");
  assert.deepEqual(text.slice(text.indexOf("STAGES\n")).trimEnd().split("\n"), [
    "STAGES",
    "  STAGE    VISIT  ATTEMPT  OUTCOME               DURATION  USAGE               COMMIT",
    "  plan     1      1        failed (interrupted)  1.5 s     -                   -",
    "  plan     1      1        succeeded             5.4 s     1,200 in / 340 out  0123456789ab",
    "  check    1      1        succeeded             40 ms     -                   -",
    "  approve  1      1        running               -         -                   -",
  ]);

  const json = JSON.parse(await show(repo, true)) as { workflow: Record<string, unknown>; origin: unknown; status: string };
  assert.equal(json.status, "paused");
  assert.deepEqual(json.origin, origin);
  assert.equal((json.workflow["gate"] as { gate: string }).gate, "approve");
  assert.deepEqual((json.workflow["checkpoints"] as Array<{ stage: string }>).map((c) => c.stage), ["plan", "check"]);
  assert.equal((json.workflow["stages"] as unknown[]).length, 4);
});

test("show of a run that is not a workflow run has no workflow lines", async () => {
  const repo = await repoWithRun("cli-show-plain-", [started, ["run.completed", SAMPLE_DATA["run.completed"]]]);
  const text = await show(repo);
  assert.doesNotMatch(text, /^(workflow|forked|gate|checkpoint):|STAGES/m);
});
