import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { StageResult } from "../workflow/stage-result.ts";
import type { StageRunner } from "../workflow/walk-workflow.ts";

/**
 * A stage with `artefact="kind:path"` (the pipeline's spec and plan): once it succeeded, the
 * file must be in the workspace (`artefact.written`: kind, path, bytes, sha256); a stage that
 * did not write it fails (deterministic), naming the file.
 */
export function withArtefact(runner: StageRunner, cwd: string): StageRunner {
  return async (stage) => {
    const result = await runner(stage);
    const declared = stage.node.artefact;
    if (declared === undefined || result.outcome !== "succeeded") return result;
    const colon = declared.indexOf(":");
    const kind = colon > 0 ? declared.slice(0, colon) : "artefact";
    const path = colon > 0 ? declared.slice(colon + 1) : declared;
    const bytes = await readFile(join(cwd, path)).catch(() => undefined);
    if (bytes === undefined) {
      return { ...result, outcome: "failed", class: "deterministic", error: { code: "artefact_missing", message: `stage "${stage.node.id}" was to write its ${kind} to ${path}, and did not` } } satisfies StageResult;
    }
    stage.sink.append("artefact.written", { kind, path, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
    return result;
  };
}
