import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSubtaskList, SUBTASK_LIST_EXAMPLE } from "@baton/workflow";
import type { StageResult } from "../workflow/stage-result.ts";
import type { StageRun } from "../workflow/walk-workflow.ts";

/**
 * A subtasks stage (`type=subtasks`, `script=` the list's path in the workspace): reads the
 * plan's subtask list and checks it against its schema (`artefact.written`, then one
 * `subtask.updated` `planned` each) and puts it in the context as `subtasks` for a `foreach`.
 * A missing or bad list fails the stage (deterministic), naming the file and the problem.
 */
export function subtasksStage(deps: { cwd: string }) {
  return async (stage: StageRun): Promise<StageResult> => {
    const path = stage.node.script ?? ".pipeline/subtasks.json";
    const fail = (message: string): StageResult => ({ outcome: "failed", class: "deterministic", error: { code: "bad_subtask_list", message: `${message}; it must look like ${SUBTASK_LIST_EXAMPLE.replaceAll(/\s+/g, " ")}` } });
    let text: string;
    try {
      text = await readFile(join(deps.cwd, path), "utf8");
    } catch {
      return fail(`the plan wrote no subtask list at ${path}`);
    }
    const list = parseSubtaskList(text);
    if ("problem" in list) return fail(`the subtask list ${path} is not valid: ${list.problem}`);
    stage.sink.append("artefact.written", { kind: "subtasks", path, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") });
    for (const subtask of list.subtasks) stage.sink.append("subtask.updated", { id: subtask.id, title: subtask.title, status: "planned" });
    return { outcome: "succeeded", summary: `${list.subtasks.length} subtask${list.subtasks.length === 1 ? "" : "s"}: ${list.subtasks.map((subtask) => subtask.id).join(", ")}`, signals: { context_updates: { subtasks: list.subtasks } } };
  };
}
