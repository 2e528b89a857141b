import { runDiff } from "@baton/engine";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { readRunState } from "../run-state.ts";
import { onTerminal } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** A run's change: `git diff base_sha..branch` once committed, else its working changes. */
export async function diffCommand(ctx: CliContext, ref: string, options: { stat?: boolean }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  await store.recoverIfAbandoned(run.id);
  const state = await readRunState(store, run.id);
  const text = await runDiff(project.root, state, { stat: options.stat === true });
  ctx.stdout.write(onTerminal(ctx.stdout, text));
  return EXIT.succeeded;
}
