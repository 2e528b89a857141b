import { loadConfig } from "@baton/engine/config";
import { BatonError } from "@baton/engine/errors";
import { Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { batonResource, exportSpans, feedSpanItems, FLUSH_AFTER_MS, otlpSink, resolveOtlpSettings, runSpanItems, type OtlpSettings } from "@baton/otel";
import { definedFields } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

export type OtelExportOptions = { feed?: boolean; after: number; endpoint?: string; follow?: boolean };

/** Tries of one batch before `baton otel export` gives up; the SDK's exporter retries each of them itself, with backoff. */
const EXPORT_TRIES = 2;

/**
 * `baton otel export`: the spans of one run (cursor: seq) or of every run on the feed (cursor:
 * pos) after `--after`, sent over OTLP/HTTP one accepted batch at a time. Prints how far it got,
 * which is where the next export starts. With `--follow` it goes on as the store commits new
 * events (a part-filled batch is sent within a second), until the run ends (RUN) or Ctrl-C;
 * a collector that is down is tried again until it takes the batch.
 */
export async function otelExportCommand(ctx: CliContext, ref: string | undefined, options: OtelExportOptions): Promise<number> {
  if ((ref === undefined) === (options.feed !== true)) {
    throw new BatonError("usage", ref === undefined ? "nothing to export" : "a RUN and --feed together", { hint: "pass a RUN (its spans, by seq) or --feed (every run's, by pos)" });
  }
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  const settings = resolveOtlpSettings(config.otel, ctx.env, options.endpoint);
  await using store = await openProjectStore(ctx, project);
  const follow = options.follow === true;
  const tree = definedFields({ after: options.after, captureContent: config.otel.capture_content, redact: redactorOf(ctx), follow: follow ? true : undefined, signal: follow ? ctx.signal : undefined });
  const items = ref === undefined ? feedSpanItems(store, tree) : runSpanItems(store, (await store.resolveRun(ref)).id, tree);
  const what = ref === undefined ? "pos" : "seq";
  // Awaited here: `await using` closes the store when this function returns, and the export reads it until it ends.
  return await exportTo(ctx, settings, items, what, options.after, follow);
}

async function exportTo(ctx: CliContext, settings: OtlpSettings, items: ReturnType<typeof feedSpanItems>, what: "pos" | "seq", after: number, follow: boolean): Promise<number> {
  const sink = otlpSink(settings);
  let delivered = after;
  try {
    const totals = await exportSpans(
      items,
      definedFields({
        sink,
        resource: batonResource(),
        // Following, a collector that is down is waited for: the spans keep, the cursor holds.
        maxTries: follow ? undefined : EXPORT_TRIES,
        flushAfterMs: follow ? FLUSH_AFTER_MS : undefined,
        signal: ctx.signal,
        onAccepted: (cursor: number) => {
          delivered = cursor;
        },
        onRetry: (error: unknown, attempt: number, waitMs: number) =>
          ctx.stderr.write(`baton: ${visibleText(settings.url)} did not take a batch (${visibleText(describe(error))}); ${follow ? `try ${attempt + 1}` : `try ${attempt + 1} of ${EXPORT_TRIES}`} in ${waitMs} ms\n`),
      }),
    );
    const cursor = totals.cursor ?? after;
    ctx.stdout.write(`exported ${totals.spans} spans in ${totals.batches} requests to ${visibleText(settings.url)}; up to ${what} ${cursor} (continue with --after ${cursor})\n`);
    return follow && ctx.signal.aborted ? EXIT.cancelled : EXIT.succeeded;
  } catch (error) {
    if (follow && ctx.signal.aborted) {
      ctx.stdout.write(`stopped: everything up to ${what} ${delivered} was delivered to ${visibleText(settings.url)} (continue with --after ${delivered})\n`);
      return EXIT.cancelled;
    }
    ctx.stderr.write(`baton: could not export to ${visibleText(settings.url)} (${visibleText(describe(error))}): everything up to ${what} ${delivered} was delivered; run again with --after ${delivered}\n`);
    return EXIT.failed;
  } finally {
    await sink.shutdown();
  }
}

function redactorOf(ctx: CliContext): (text: string) => string {
  const redactor = new Redactor(secretsFromEnv(ctx.env));
  return (text) => redactor.redactText(text);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
