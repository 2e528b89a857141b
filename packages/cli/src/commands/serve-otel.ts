import { loadConfig } from "@baton/engine/config";
import { Redactor, secretsFromEnv } from "@baton/engine/redaction";
import type { Store } from "@baton/engine/store";
import { followFeedExport, otlpSink, resolveOtlpSettings } from "@baton/otel";
import type { CliContext } from "../context.ts";
import { visibleText } from "../render/terminal-text.ts";

/**
 * `baton serve --otel`: every run's spans exported as the store commits their events, from the
 * cursor kept in the store. A receiver that is down is waited for (the batch is tried again);
 * nothing is skipped.
 */
export async function startServeExport(ctx: CliContext, store: Store, batonDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const config = await loadConfig(batonDir);
  const settings = resolveOtlpSettings(config.otel, ctx.env);
  const sink = otlpSink(settings);
  const stopping = new AbortController();
  const redactor = new Redactor(secretsFromEnv(ctx.env));
  const running = followFeedExport(store, {
    sink,
    signal: AbortSignal.any([stopping.signal, ctx.signal]),
    captureContent: config.otel.capture_content,
    redact: (text) => redactor.redactText(text),
    onRetry: (error, attempt, waitMs) => ctx.stderr.write(`baton: ${visibleText(settings.url)} did not take a batch of spans (${visibleText(error instanceof Error ? error.message : String(error))}); try ${attempt + 1} in ${waitMs} ms\n`),
  }).catch((error: unknown) => {
    if (!stopping.signal.aborted && !ctx.signal.aborted) ctx.stderr.write(`baton: the span export stopped: ${visibleText(error instanceof Error ? error.message : String(error))}\n`);
  });
  return {
    url: settings.url,
    stop: async () => {
      stopping.abort();
      await running;
      await sink.shutdown();
    },
  };
}
