import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { isEphemeralType, isFinalType } from "@baton/protocol";
import { applyToOpenStarts, describeStart, START_END_PAIRS, type Envelope, type OpenStarts } from "@baton/protocol/core";
import { UNVALIDATED_DIR } from "@baton/protocol/testing";

/** The schema every logged event must match: the committed file, not the zod source. */
export const SCHEMA_FILE = join(import.meta.dirname, "..", "docs", "schema", "events.v1.json");

export type LogProblem = { file: string; line: number; error: string };
export type LogReport = { logs: number; events: number; skipped: number; problems: LogProblem[] };

type Schema = { $defs?: { known_event?: { oneOf?: Array<{ properties?: { type?: { const?: string } } }> } } };

/**
 * Loads the schema and returns a check of every `events.jsonl` below a root, at any depth:
 * each line is JSON, matches the JSON Schema, and belongs to a valid log (seq from 1 without
 * gaps, one run, no ephemeral events, nothing after a final event but the `run.started` that
 * resumes a failed run, a newline after the last line, and in a log that has ended every start
 * met its end before the final event). Logs below `<root>/unvalidated/` are only counted: tests
 * put deliberately broken logs there.
 */
export async function logValidator(schemaFile = SCHEMA_FILE): Promise<(root: string) => Promise<LogReport>> {
  const schema = JSON.parse(await readFile(schemaFile, "utf8")) as Schema;
  // Compiled once: compiling the schema in strict mode costs far more than checking a log.
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  const branches = (schema.$defs?.known_event?.oneOf ?? []).map((branch) => branch.properties?.type?.const);
  return async (root) => {
    const report: LogReport = { logs: 0, events: 0, skipped: 0, problems: [] };
    for (const file of await findLogs(root)) {
      if (relative(root, file).split(sep)[0] === UNVALIDATED_DIR) {
        report.skipped += 1;
        continue;
      }
      report.logs += 1;
      report.events += await checkLog(file, validate, branches, report.problems);
    }
    return report;
  };
}

async function findLogs(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name === "events.jsonl")
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function checkLog(file: string, validate: ValidateFunction, branches: Array<string | undefined>, problems: LogProblem[]): Promise<number> {
  const problem = (line: number, error: string) => problems.push({ file, line, error });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(file));
  } catch (error) {
    problem(0, `unreadable or not UTF-8: ${(error as Error).message}`);
    return 0;
  }
  if (text === "") return 0;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else problem(lines.length, "the last line has no newline (a torn write)");
  // A run's directory is named after its id: `.baton/runs/<run-id>/events.jsonl`.
  const folder = basename(dirname(file));
  let run: string | undefined = folder.startsWith("run_") ? folder : undefined;
  let expectedSeq = 1;
  let finalAt: { line: number; type: string } | undefined;
  let events = 0;
  // Starts still waiting for their end, each with its line: checked when the final event comes.
  const open: OpenStarts = new Map();
  const startLines = new Map<number | undefined, number>();
  for (const [index, textLine] of lines.entries()) {
    const line = index + 1;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(textLine) as Record<string, unknown>;
    } catch (error) {
      problem(line, textLine.trim() === "" ? "a blank line" : `not JSON: ${(error as Error).message}`);
      continue;
    }
    events += 1;
    if (!validate(event)) {
      problem(line, describeErrors(validate.errors ?? [], event, branches));
      if (typeof event !== "object" || event === null) continue;
    }
    const type = String(event["type"]);
    if (isEphemeralType(type)) {
      problem(line, `ephemeral ${type} in a log`);
      continue;
    }
    // A failed workflow run may be resumed (`baton resume`): a `run.started` with `resumed: true`
    // right after its `run.failed` reopens it, as the run-state fold has it.
    if (finalAt?.type === "run.failed" && finalAt.line === line - 1 && type === "run.started" && isResume(event)) finalAt = undefined;
    if (finalAt !== undefined) problem(line, `${type} after the final ${finalAt.type} on line ${finalAt.line}`);
    if (finalAt === undefined && typeof event["data"] === "object") {
      if (type in START_END_PAIRS && typeof event["seq"] === "number") startLines.set(event["seq"], line);
      applyToOpenStarts(open, event as Envelope);
    }
    if (isFinalType(type) && finalAt === undefined) {
      finalAt = { line, type };
      for (const start of open.values()) {
        const ends = START_END_PAIRS[start.type].ends.join(" or ");
        problem(startLines.get(start.seq) ?? line, `${describeStart(start)} has no ${ends} before the final ${type} on line ${line}: every start has an end`);
      }
    }
    if (typeof event["run"] === "string") {
      if (run === undefined) run = event["run"];
      else if (event["run"] !== run) problem(line, `run ${event["run"]} in the log of ${run}`);
    }
    const seq = event["seq"];
    if (typeof seq !== "number") problem(line, "no seq: every logged event has one");
    else {
      if (seq !== expectedSeq) problem(line, `seq ${seq} where ${expectedSeq} was due (seq starts at 1, without gaps)`);
      expectedSeq = seq + 1;
    }
  }
  return events;
}

function isResume(event: Record<string, unknown>): boolean {
  const data = event["data"];
  return typeof data === "object" && data !== null && (data as Record<string, unknown>)["resumed"] === true;
}

/** The errors of the branch that applies (the envelope's, or the known type's), not of all 23. */
function describeErrors(errors: ErrorObject[], event: unknown, branches: Array<string | undefined>): string {
  const type = typeof event === "object" && event !== null ? (event as Record<string, unknown>)["type"] : undefined;
  const envelope = errors.filter((error) => error.schemaPath.startsWith("#/$defs/envelope/"));
  const branch = branches.indexOf(typeof type === "string" ? type : undefined);
  const own = errors.filter((error) => error.schemaPath.startsWith(`#/$defs/known_event/oneOf/${branch}/`));
  const chosen = envelope.length > 0 ? envelope : branch !== -1 && own.length > 0 ? own : errors;
  const described = chosen.map((error) => {
    const where = error.instancePath === "" ? "event" : error.instancePath;
    const allowed = error.keyword === "enum" ? `: ${JSON.stringify((error.params as { allowedValues: unknown }).allowedValues)}` : "";
    return `${where} ${error.message ?? error.keyword}${allowed}`;
  });
  return `${typeof type === "string" ? `${type}: ` : ""}${[...new Set(described)].join("; ")}`;
}

/** The report as lines for the terminal: one summary line, then `file:line: error` per problem. */
export function formatReport(report: LogReport, schemaLabel: string, limit = 200): string[] {
  const skipped = report.skipped > 0 ? ` (${report.skipped} logs in ${UNVALIDATED_DIR}/ skipped)` : "";
  const summary = `validated ${report.events} events in ${report.logs} logs against ${schemaLabel}${skipped}`;
  if (report.problems.length === 0) return [summary];
  const lines = report.problems.slice(0, limit).map((p) => `${p.file}:${p.line}: ${p.error}`);
  if (report.problems.length > limit) lines.push(`… and ${report.problems.length - limit} more`);
  return [`✖ ${summary}: ${report.problems.length} problems`, ...lines];
}
