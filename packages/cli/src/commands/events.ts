import { BatonError } from "@baton/engine/errors";
import type { Envelope } from "@baton/protocol";
import { EXIT, type CliContext } from "../context.ts";
import { writeLine } from "../output.ts";
import { locateProject } from "../project.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** As program.ts reads them: `after` is a whole number (0 when not given). */
export type EventsOptions = { after?: number; follow?: boolean; json?: boolean; deltas?: boolean };

/**
 * One run's events by seq, or without RUN the cross-run feed by pos. With --follow, waits for
 * more: a run's stream ends after its final event; the feed runs until interrupted, or until
 * stdout loses its reader (then, follow or not, it ends with exit 0). With
 * --deltas too, a run's ephemeral events come in place between its durable ones (the output,
 * `--json` included, is durable-only without it).
 */
export async function eventsCommand(ctx: CliContext, ref: string | undefined, options: EventsOptions): Promise<number> {
  const after = options.after ?? 0;
  if (options.deltas && (ref === undefined || !options.follow)) {
    throw new BatonError("usage", "--deltas needs --follow and a RUN", { hint: "deltas are live only: baton events RUN --follow --deltas" });
  }
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const print = options.json
    ? (event: Envelope) => writeLine(ctx.stdout, terminalJson(event))
    : (event: Envelope & { pos?: number; number?: number }) => writeLine(ctx.stdout, visibleText(humanLine(event)));
  // A follower whose stdout lost its reader (`| head`) has no one to follow for: it ends.
  const signal = AbortSignal.any([ctx.signal, ctx.stdoutClosed]);
  let events: AsyncIterable<Envelope & { pos?: number; number?: number }>;
  if (ref !== undefined) {
    const run = await store.resolveRun(ref);
    // A run whose writer died ends as failed (interrupted) when a command next touches it.
    if (!options.follow) await store.recoverIfAbandoned(run.id);
    events = options.follow ? store.followRun(run.id, { after, signal, ephemeral: options.deltas === true }) : store.readRun(run.id, { after });
  } else {
    events = options.follow ? store.followFeed({ after, signal }) : store.readFeed({ after });
  }
  for await (const event of events) {
    // Checked here too: reading a long log without --follow also ends at once.
    if (signal.aborted) break;
    await print(event);
  }
  return EXIT.succeeded;
}

function humanLine(event: Envelope & { pos?: number; number?: number }): string {
  const where = event.pos !== undefined ? `${String(event.pos).padStart(6)}  #${event.number ?? "?"}:${event.seq ?? "-"}` : String(event.seq ?? "-").padStart(6);
  return `${where}  ${event.at}  ${event.type.padEnd(20)}  ${summarize(event.data)}`;
}

function summarize(data: Record<string, unknown>): string {
  const text = JSON.stringify(data);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}
