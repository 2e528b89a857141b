import { runDiff } from "@baton/engine";
import type { Store } from "@baton/engine/store";
import { applyEvent, definedFields, initialRunState } from "@baton/protocol/core";
import type { ServerApp } from "../http/server-app.ts";
import { runDiffRoute } from "./contract/views.ts";
import { parseUnifiedDiff, type DiffFile } from "./diff-files.ts";
import { resolveFresh } from "./resolve.ts";

/** A run's change as the API gives it: `baton diff`'s data, split by file. */
export type RunDiff = {
  /** `commit`: the run's commit against its base; `workspace`: its working changes (no commit yet). */
  source: "commit" | "workspace";
  base_sha?: string;
  commit?: string;
  branch?: string;
  added: number;
  removed: number;
  files: DiffFile[];
};

/**
 * `GET /api/runs/{ref}/diff`: what the run changed, from the engine's own diff (the code behind
 * `baton diff`, not a `baton` child): the files with their added and removed lines and each
 * file's hunks.
 */
export function addDiffRoutes(app: ServerApp, options: { store: Store; projectRoot: string }): void {
  const { store, projectRoot } = options;
  app.openapi(runDiffRoute, async (c) => {
    const run = await resolveFresh(store, c.req.valid("param").ref);
    const state = initialRunState();
    for await (const event of store.readRun(run.id)) applyEvent(state, event);
    const text = await runDiff(projectRoot, state);
    const files = parseUnifiedDiff(text);
    const committed = state.commit !== undefined && state.workspace?.base_sha !== undefined;
    const diff: RunDiff = definedFields({
      source: committed ? ("commit" as const) : ("workspace" as const),
      base_sha: state.workspace?.base_sha,
      commit: state.commit?.sha,
      branch: state.commit?.branch ?? state.workspace?.branch,
      added: files.reduce((sum, file) => sum + file.added, 0),
      removed: files.reduce((sum, file) => sum + file.removed, 0),
      files,
    });
    return c.json({ run, diff }, 200);
  });
}
