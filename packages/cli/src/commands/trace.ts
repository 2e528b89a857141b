import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { BatonError } from "@baton/engine/errors";
import { outputInEvent, type Envelope } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { onTerminal } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** Call ids listed in the hint of an unknown call, at most. */
const LISTED_CALLS = 20;

export type TraceOptions = {
  /** `STAGE` or `STAGE@VISIT`: picks the call among those of that id made in other stages. */
  stage?: string;
  /** The seq of the call's `tool.completed`: picks one call of several with the same id. */
  seq?: number;
};

/** One completed tool call: its `tool.completed` event. */
type Completed = { seq: number; where: string | undefined; data: Record<string, unknown> };

/**
 * The complete output of one tool call, from the run's trace store (or from its event, when its
 * preview holds the whole of it: ADR 0039). Agents number their calls
 * per session, so in a workflow run several stages can each have a `call_1`: then `--stage`
 * (or `--seq`) says which one.
 */
export async function traceCommand(ctx: CliContext, ref: string, call: string, options: TraceOptions = {}): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  const calls: string[] = [];
  let started = 0;
  let completed: Completed[] = [];
  for await (const event of store.readRun(run.id, { after: 0 })) {
    const data = event.data as Record<string, unknown>;
    if (event.type === "tool.started" && typeof data["call"] === "string") {
      if (!calls.includes(data["call"])) calls.push(data["call"]);
      if (data["call"] === call && matchesStage(event, options.stage)) started += 1;
    }
    if (event.type === "tool.completed" && data["call"] === call) completed.push({ seq: event.seq ?? 0, where: stageName(event), data });
  }
  if (!calls.includes(call)) {
    const listed = calls.slice(0, LISTED_CALLS).join(", ") + (calls.length > LISTED_CALLS ? `, and ${calls.length - LISTED_CALLS} more` : "");
    throw new BatonError("unknown_call", `run ${run.number} has no tool call "${call}"`, {
      hint: calls.length === 0 ? "that run made no tool calls" : `its tool calls: ${listed}`,
    });
  }
  const all = completed;
  completed = completed.filter((c) => (options.seq === undefined || c.seq === options.seq) && (options.stage === undefined || matchesWhere(c.where, options.stage)));
  if (completed.length === 0 && started > 0 && options.seq === undefined) {
    throw new BatonError("call_running", `tool call "${call}" of run ${run.number} has not completed yet`, { hint: "wait for its tool.completed event" });
  }
  if (completed.length === 0) {
    throw new BatonError("unknown_call", [`run ${run.number} has no completed tool call "${call}"`, pickedBy(options)].filter((part) => part !== "").join(" "), { hint: `its calls "${call}": ${describe(all)}` });
  }
  if (completed.length > 1) {
    throw new BatonError("ambiguous_call", `run ${run.number} has ${completed.length} tool calls "${call}": ${describe(completed)}`, {
      hint: completed.every((c) => c.where !== undefined) && new Set(completed.map((c) => c.where)).size === completed.length ? "pick one with --stage STAGE@VISIT" : "pick one with --seq N",
    });
  }
  const { data } = completed[0] as Completed;
  const inEvent = outputInEvent(data);
  if (inEvent !== undefined) {
    ctx.stdout.write(onTerminal(ctx.stdout, inEvent.endsWith("\n") ? inEvent : `${inEvent}\n`));
    return EXIT.succeeded;
  }
  const file = data["output_file"];
  if (typeof file !== "string") return EXIT.succeeded;
  // The path comes from the log: it must stay inside the run's folder.
  const runDir = store.runDir(run.id);
  const path = resolve(runDir, file);
  const rel = relative(runDir, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) {
    throw new BatonError("bad_trace_path", `tool call "${call}" names an output file outside its run: ${file}`);
  }
  const text = await readFile(path, "utf8").catch((error: unknown) => {
    throw new BatonError("trace_missing", `the output of tool call "${call}" is not in the trace store (${(error as Error).message})`);
  });
  ctx.stdout.write(onTerminal(ctx.stdout, text.endsWith("\n") || text === "" ? text : `${text}\n`));
  return EXIT.succeeded;
}

/** `build@2`, or `review@1/b2` inside a fan-out's branch; undefined outside a workflow stage. */
function stageName(event: Envelope): string | undefined {
  const stage = event.stage;
  if (stage === undefined) return undefined;
  return `${stage.id}@${stage.visit}${stage.branch === undefined ? "" : `/${stage.branch}`}`;
}

function matchesStage(event: Envelope, wanted: string | undefined): boolean {
  return wanted === undefined || matchesWhere(stageName(event), wanted);
}

/** `--stage build` matches every visit of build (and its branches); `--stage build@2` one visit. */
function matchesWhere(where: string | undefined, wanted: string): boolean {
  if (where === undefined) return false;
  if (where === wanted) return true;
  const [visit] = where.split("/");
  return visit === wanted || (!wanted.includes("@") && visit?.startsWith(`${wanted}@`) === true);
}

function describe(completed: readonly Completed[]): string {
  return completed.map((c) => (c.where === undefined ? `seq ${c.seq}` : `${c.where} (seq ${c.seq})`)).join(", ");
}

function pickedBy(options: TraceOptions): string {
  const parts = [options.stage === undefined ? "" : `in stage ${options.stage}`, options.seq === undefined ? "" : `at seq ${options.seq}`];
  return parts.filter((p) => p !== "").join(" ");
}
