import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { BatonError } from "@baton/engine/errors";
import { openStore } from "@baton/engine/store";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { onTerminal } from "../render/terminal-text.ts";

/** Call ids listed in the hint of an unknown call, at most. */
const LISTED_CALLS = 20;

/** The complete output of one tool call, from the run's trace store. */
export async function traceCommand(ctx: CliContext, ref: string, call: string): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openStore(project.batonDir);
  const run = store.resolveRun(ref);
  const calls: string[] = [];
  let completed: Record<string, unknown> | undefined;
  for await (const event of store.readRun(run.id, { after: 0 })) {
    const data = event.data as Record<string, unknown>;
    if (event.type === "tool.started" && typeof data["call"] === "string") calls.push(data["call"]);
    if (event.type === "tool.completed" && data["call"] === call) completed = data;
  }
  if (!calls.includes(call) && completed === undefined) {
    const listed = calls.slice(0, LISTED_CALLS).join(", ") + (calls.length > LISTED_CALLS ? `, and ${calls.length - LISTED_CALLS} more` : "");
    throw new BatonError("unknown_call", `run ${run.number} has no tool call "${call}"`, {
      hint: calls.length === 0 ? "that run made no tool calls" : `its tool calls: ${listed}`,
    });
  }
  if (completed === undefined) {
    throw new BatonError("call_running", `tool call "${call}" of run ${run.number} has not completed yet`, { hint: "wait for its tool.completed event" });
  }
  const file = completed["output_file"];
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
