import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { BatonError } from "@baton/engine/errors";
import { Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { renderSummary, renderTranscript, runTranscriptSource, type TranscriptFormat } from "@baton/engine/transcript";
import type { Envelope } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { openProjectStore } from "../project-store.ts";

export type TranscriptOptions = { format: TranscriptFormat; maxBytes?: number; out?: string };

/**
 * A run's transcript, rendered from its log and trace store: complete, or bounded to
 * `--max-bytes` (as `summary.md` is). Foreign text in it is escaped and redacted again.
 */
export async function transcriptCommand(ctx: CliContext, ref: string, options: TranscriptOptions): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  const events: Envelope[] = [];
  for await (const event of store.readRun(run.id, { after: 0 })) events.push(event);
  const source = runTranscriptSource(store.runDir(run.id), new Redactor(secretsFromEnv(ctx.env)));
  const text =
    options.maxBytes === undefined
      ? renderTranscript(events, source, options.format)
      : renderSummary(events, source, { format: options.format, maxBytes: options.maxBytes, completeTranscript: `baton transcript ${run.number}` });
  if (options.out === undefined) {
    ctx.stdout.write(text);
    return EXIT.succeeded;
  }
  const path = resolve(ctx.cwd, options.out);
  await writeFile(path, text).catch((error: unknown) => {
    throw new BatonError("write_failed", `could not write ${options.out}: ${(error as Error).message}`, { hint: "pass --out with a file in a folder you can write" });
  });
  return EXIT.succeeded;
}
