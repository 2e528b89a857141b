import { createReadStream, readFileSync } from "node:fs";
import { appendFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { LineSplitter, type Envelope } from "@baton/protocol/core";
import { renderTranscriptAndSummary, type TranscriptSource } from "@baton/transcript";
import type { Redactor } from "../redaction/redactor.ts";

/** The complete transcript, in the run's folder. */
export const TRANSCRIPT_FILE = "transcript.md";
/** The bounded one, fit for a CI job's summary or a pull request. */
export const SUMMARY_FILE = "summary.md";

/** How much of the log `readRunEvents` reads at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A run's events, read from its closed log in its folder. Plain JSON lines, without the
 * catalog's schemas: a run's end must not load them (see resume-imports.test.ts); a line that
 * is not an envelope is skipped, as the log's readers skip a torn one.
 */
export async function readRunEvents(runDir: string): Promise<Envelope[]> {
  const events: Envelope[] = [];
  const take = (line: string) => {
    if (line.trim() === "") return;
    try {
      const value = JSON.parse(line) as Envelope;
      if (typeof value.type === "string" && typeof value.run === "string" && typeof value.data === "object") events.push(value);
    } catch {
      // a torn or damaged line: the transcript shows what the log holds whole
    }
  };
  // Read in large chunks and split on newlines as the log's readers do (readline took twice as long).
  const splitter = new LineSplitter();
  for await (const chunk of createReadStream(join(runDir, "events.jsonl"), { highWaterMark: READ_CHUNK_BYTES })) {
    for (const line of splitter.push(chunk as Buffer)) take(line);
  }
  const rest = splitter.end();
  if (rest !== undefined) take(rest);
  return events;
}

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
 * appends the summary to `stepSummaryFile` (a CI job's `$GITHUB_STEP_SUMMARY`) when given.
 * Never fails the run: a transcript that cannot be written is reported as a warning.
 */
export async function writeRunTranscripts(runDir: string, redactor: Redactor, options: { stepSummaryFile?: string | undefined } = {}): Promise<void> {
  try {
    const events = await readRunEvents(runDir);
    const source = runTranscriptSource(runDir, redactor);
    const { transcript, summary } = renderTranscriptAndSummary(events, source, { format: "md", completeTranscript: `${source.runDir ?? runDir}/${TRANSCRIPT_FILE}` });
    await writeFile(join(runDir, TRANSCRIPT_FILE), transcript);
    await writeFile(join(runDir, SUMMARY_FILE), summary);
    if (options.stepSummaryFile !== undefined && options.stepSummaryFile !== "") await appendFile(options.stepSummaryFile, `${summary}\n`);
  } catch (error) {
    process.emitWarning(`Baton could not write the transcript of ${basename(runDir)}: ${error instanceof Error ? error.message : String(error)}`, { code: "BATON_TRANSCRIPT" });
  }
}
