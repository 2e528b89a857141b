import { BatonError } from "@baton/engine";
import { newInputId, requestInput } from "@baton/engine/input";
import { isFinalStatus } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";
import { awaitEvent, runForRequest, whoAmI } from "./people-request.ts";
import { openProjectStore } from "../project-store.ts";

/**
 * `baton steer RUN "text"`: queues text for the run's agent, then waits to see the run take it
 * (`input.queued`) or refuse it (`input.rejected`: too long, too many waiting). A run that is
 * not running is refused here, and nothing is left for it.
 */
export async function steerCommand(ctx: CliContext, ref: string, text: string): Promise<number> {
  if (text.trim() === "") throw new BatonError("usage", "the text to send is empty", { hint: 'pass it as the second argument: baton steer RUN "text"' });
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await runForRequest(store, ref);
  if (run.state.status !== "running") {
    throw new BatonError(isFinalStatus(run.state.status) ? "run_ended" : "not_running", `run ${run.number} is ${run.state.status}, so nothing can steer it`, {
      hint: run.state.status === "paused" ? `answer its gate with baton approve|reject|answer ${run.number}` : `start a new run, or baton fork ${run.number}`,
    });
  }
  const id = newInputId();
  await requestInput(run.dir, { id, by: whoAmI(ctx), text });
  const taken = await awaitEvent(store, run.id, run.state.last_seq, (event) => (event.type === "input.queued" || event.type === "input.rejected") && event.data["id"] === id, ctx.signal);
  if (taken === undefined) {
    ctx.stdout.write(`left input ${id} for run ${run.number}; it has not taken it yet (it is taken while an agent runs)\n`);
    return EXIT.succeeded;
  }
  if (taken.type === "input.rejected") {
    const message = typeof taken.data["message"] === "string" ? taken.data["message"] : String(taken.data["code"]);
    throw new BatonError(`input_${String(taken.data["code"])}`, `run ${run.number} refused input ${id}: ${visibleText(message)}`, { hint: "see [input] in .baton/config.toml for the limits" });
  }
  ctx.stdout.write(`run ${run.number} took input ${id}; it reaches the agent mid-turn if it takes notices, else when its turn ends\n`);
  return EXIT.succeeded;
}
