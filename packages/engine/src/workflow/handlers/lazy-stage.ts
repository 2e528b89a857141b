import type { StageRunner } from "../walk-workflow.ts";

/**
 * A handler whose module is loaded when a stage of its kind first runs: a run records its
 * start without loading the handlers its workflow may never reach (a resumed run that goes on
 * at a gate, a workflow without parallel stages). Loaded once, then shared by every visit.
 *
 * @example lazyStage(() => import("./command-stage.ts").then((module) => module.commandStage(deps)))
 */
export function lazyStage(load: () => Promise<StageRunner>): StageRunner {
  let runner: Promise<StageRunner> | undefined;
  return async (stage) => {
    runner ??= load();
    return (await runner)(stage);
  };
}
