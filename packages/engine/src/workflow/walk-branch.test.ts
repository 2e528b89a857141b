import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, openStages, type Envelope, type StageScope } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { Redactor } from "../redaction/redactor.ts";
import { RunSink, type RunLogWriter } from "../run/run-sink.ts";
import type { StageResult } from "./stage-result.ts";
import { walkWorkflow, type StageRunner, type WalkOptions } from "./walk-workflow.ts";
import type { WalkNode, WorkflowRouter } from "./workflow-router.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";

/** A log writer in memory: the walker's events, in order, with their scope. */
function memoryWriter(): RunLogWriter & { events: Envelope[] } {
  const events: Envelope[] = [];
  return {
    runId: RUN,
    number: 1,
    dir: "/nowhere",
    get lastSeq() {
      return events.length;
    },
    failure: new AbortController().signal,
    events,
    append(type: string, data: Record<string, unknown>, stage?: StageScope) {
      const envelope: Envelope = definedFields({ v: 1, run: RUN, seq: events.length + 1, at: "2026-11-29T10:00:00.000Z", type, data, stage });
      events.push(envelope);
      return envelope;
    },
    publish: () => undefined,
    close: () => Promise.resolve(),
    readLog: async function* () {
      yield* events;
    },
  };
}

/** A graph given as nodes (id → handler) and edges taken in order (the first from a stage). */
function router(nodes: Record<string, string>, edges: [string, string][]): WorkflowRouter {
  const node = (id: string): WalkNode | undefined =>
    nodes[id] === undefined ? undefined : { id, handler: nodes[id], label: id, goal_gate: false, allow_partial: false, auto_status: false, freeform: false };
  return {
    graph: { name: "test" },
    startId: "start",
    node,
    route: (from) => {
      const edge = edges.find(([a]) => a === from);
      return edge === undefined ? undefined : { to: edge[1], reason: "unconditional" };
    },
    gate: () => ({ options: [], freeform: false }),
    prompt: () => Promise.resolve(""),
    agentOf: () => ({}),
    signalsOf: () => ({}),
    branchTargets: (id) => edges.filter(([a]) => a === id).map(([, b]) => b),
    fanIn: () => "gather",
  };
}

function walkBranch(graph: WorkflowRouter, handlers: Record<string, StageRunner>, first: string): { writer: ReturnType<typeof memoryWriter>; sink: RunSink; walk: Promise<Awaited<ReturnType<typeof walkWorkflow>>> } {
  const writer = memoryWriter();
  const sink = new RunSink(writer, new Redactor([]));
  const options: WalkOptions = {
    router: graph,
    sink,
    handlers,
    checkpointCommit: () => Promise.resolve(undefined),
    start: { node: first, context: {}, visits: {}, previous: { outcome: "succeeded" } },
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
    branch: { id: "b1", fanIn: "gather" },
  };
  return { writer, sink, walk: walkWorkflow(options) };
}

const succeed: StageRunner = () => Promise.resolve({ outcome: "succeeded" });

test("a branch walks to its fan-in and stops there: its events name the branch, it saves no checkpoint, and its last stage's outcome is the branch's", async () => {
  const graph = router({ a: "command", b: "command", gather: "fan_in" }, [["a", "b"], ["b", "gather"]]);
  const { writer, walk } = walkBranch(graph, { command: (stage) => Promise.resolve<StageResult>({ outcome: stage.node.id === "b" ? "partially_succeeded" : "succeeded", signals: { context_updates: { seen: stage.node.id } } }) }, "a");
  assert.deepEqual(await walk, { kind: "joined", stage: "b", outcome: "partially_succeeded" });
  assert.deepEqual(
    writer.events.map((e) => `${e.type} ${e.stage?.id ?? ""}/${e.stage?.branch ?? ""}`),
    ["stage.started a/b1", "stage.completed a/b1", "context.updated a/b1", "route.selected a/b1", "stage.started b/b1", "stage.completed b/b1", "context.updated b/b1", "route.selected b/b1"],
  );
  assert.equal(writer.events.at(-1)?.data["to"], "gather");
});

test("a branch that reaches the exit, another fan-out or another fan-in fails before starting it", async () => {
  for (const handler of ["exit", "parallel", "foreach", "fan_in"]) {
    const graph = router({ a: "command", x: handler, gather: "fan_in" }, [["a", "x"]]);
    const { writer, walk } = walkBranch(graph, { command: succeed }, "a");
    const end = await walk;
    assert.equal(end.kind === "failed" ? end.error.code : end.kind, "branch_left_fan_out", handler);
    assert.ok(!writer.events.some((e) => e.type === "stage.started" && e.data["stage"] === "x"), `${handler} never started`);
  }
});

test("a gate that would pause inside a branch fails instead, its stage closed; a handler that throws fails its stage too", async () => {
  const graph = router({ ask: "human", boom: "command", gather: "fan_in" }, [["ask", "gather"], ["boom", "gather"]]);
  const paused = walkBranch(graph, { human: () => Promise.resolve({ outcome: "skipped", halt: { kind: "paused", gate: "ask" } }) }, "ask");
  const pausedEnd = await paused.walk;
  assert.equal(pausedEnd.kind === "failed" ? pausedEnd.error.code : pausedEnd.kind, "gate_in_branch");
  assert.deepEqual(openStages(paused.sink.state.workflow), []);
  const thrown = walkBranch(graph, { command: () => Promise.reject(new BatonError("merge_failed", "git said no")) }, "boom");
  const thrownEnd = await thrown.walk;
  assert.equal(thrownEnd.kind, "failed");
  assert.deepEqual(thrown.writer.events.find((e) => e.type === "stage.failed")?.data["error"], { code: "merge_failed", message: "git said no" });
  assert.deepEqual(openStages(thrown.sink.state.workflow), []);
});

test("a branch whose first stage is the fan-in joins at once, having run nothing", async () => {
  const { writer, walk } = walkBranch(router({ gather: "fan_in" }, []), {}, "gather");
  assert.deepEqual(await walk, { kind: "joined", stage: "gather", outcome: "succeeded" });
  assert.deepEqual(writer.events, []);
});
