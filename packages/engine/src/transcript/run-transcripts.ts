import { readFileSync } from "node:fs";
import { appendFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Envelope } from "@baton/protocol/core";
import { renderViewTranscriptAndSummary, runViewFold, type RunView, type TranscriptSource } from "@baton/transcript";
import type { Redactor } from "../redaction/redactor.ts";

/** The complete transcript, in the run's folder. */
export const TRANSCRIPT_FILE = "transcript.md";
/** The bounded one, fit for a CI job's summary or a pull request. */
export const SUMMARY_FILE = "summary.md";

/** What a transcript reads besides the events: the run's trace store, and redaction once more. */
export function runTranscriptSource(runDir: string, redactor: Redactor): TranscriptSource {
  return {
    readOutput: (file) => {
      // Only files inside the run's folder: the name comes from the log.
      if (file.startsWith("/") || file.split("/").includes("..")) return undefined;
      try {
        return readFileSync(join(runDir, file), "utf8");
      } catch {
        return undefined;
      }
    },
    redact: (text) => redactor.redactText(text),
    runDir: displayRunDir(runDir),
  };
}

/** `.baton/runs/<id>`: the run's folder as a reader of the project finds it. */
function displayRunDir(runDir: string): string {
  return join(basename(dirname(dirname(runDir))), basename(dirname(runDir)), basename(runDir));
}

/**
 * Writes `transcript.md` and `summary.md` into a run's folder once its log is closed, and
 * appends the summary to `stepSummaryFile` (a CI job's `$GITHUB_STEP_SUMMARY`) when given. The
 * run is its view, folded while it ran (`LiveRunView`), or its log (the run writer's
 * `readLog()`), folded here. Never fails the run: a transcript that cannot be written is
 * reported as a warning.
 */
export async function writeRunTranscripts(run: RunView | AsyncIterable<Envelope>, runDir: string, redactor: Redactor, options: { stepSummaryFile?: string | undefined } = {}): Promise<void> {
  try {
    const view = Symbol.asyncIterator in run ? await foldLog(run) : run;
    const source = runTranscriptSource(runDir, redactor);
    const { transcript, summary } = renderViewTranscriptAndSummary(view, source, { format: "md", completeTranscript: `${source.runDir ?? runDir}/${TRANSCRIPT_FILE}` });
    await writeFile(join(runDir, TRANSCRIPT_FILE), transcript);
    await writeFile(join(runDir, SUMMARY_FILE), summary);
    if (options.stepSummaryFile !== undefined && options.stepSummaryFile !== "") await appendFile(options.stepSummaryFile, `${summary}\n`);
  } catch (error) {
    process.emitWarning(`Baton could not write the transcript of ${basename(runDir)}: ${error instanceof Error ? error.message : String(error)}`, { code: "BATON_TRANSCRIPT" });
  }
}

async function foldLog(log: AsyncIterable<Envelope>): Promise<RunView> {
  const fold = runViewFold();
  for await (const event of log) fold.add(event);
  return fold.view();
}
