import { BatonError } from "../../errors.ts";
import type { RunSummary } from "./run-summary.ts";

/** Candidates named in an `ambiguous_run` error. */
const MAX_CANDIDATES_SHOWN = 5;

const LIST_HINT = "list runs with `baton runs`";

/** The catalog lookups resolving a run reference needs (answered at once or over a connection). */
export type RunLookup = {
  byNumber(number: number): RunSummary | undefined | Promise<RunSummary | undefined>;
  /** Runs whose id is in [from, to), by id, at most `limit`. */
  inRange(from: string, to: string, limit: number): RunSummary[] | Promise<RunSummary[]>;
};

/**
 * Finds a run from what a user typed: its number (`12`), its id, or a unique prefix of the
 * id, case-insensitive, with or without `run_`. Crockford base32 reads I and L as 1 and O as
 * 0, so those are accepted too. A number wins over an id prefix made of digits.
 */
export async function resolveRunRef(lookup: RunLookup, ref: string): Promise<RunSummary> {
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed)) {
    const byNumber = await lookup.byNumber(Number(trimmed));
    if (byNumber !== undefined) return byNumber;
  }
  const body = trimmed.replace(/^run_/i, "").toUpperCase().replace(/[IL]/g, "1").replace(/O/g, "0");
  if (body.length === 0 || !/^[0-9A-HJKMNP-TV-Z]+$/.test(body)) throw notFound(ref);
  const prefix = `run_${body}`;
  // "~" sorts after every Crockford character: [prefix, prefix~) holds exactly the ids starting with it.
  const candidates = await lookup.inRange(prefix, `${prefix}~`, MAX_CANDIDATES_SHOWN + 1);
  const [only] = candidates;
  if (only === undefined) throw notFound(ref);
  if (candidates.length === 1) return only;
  const shown = candidates.slice(0, MAX_CANDIDATES_SHOWN).map((run) => `#${run.number} ${run.id}`);
  const more = candidates.length > MAX_CANDIDATES_SHOWN ? ", …" : "";
  throw new BatonError("ambiguous_run", `"${ref}" matches several runs: ${shown.join(", ")}${more}`, {
    hint: "type more of the id, or use the run number",
    details: { candidates: candidates.slice(0, MAX_CANDIDATES_SHOWN).map((run) => run.id) },
  });
}

function notFound(ref: string): BatonError {
  return new BatonError("run_not_found", `no run matches "${ref}"`, { hint: LIST_HINT });
}

export function runNotFound(runId: string): BatonError {
  return new BatonError("run_not_found", `no run ${runId}`, { hint: LIST_HINT });
}
