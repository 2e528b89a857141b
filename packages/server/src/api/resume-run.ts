import { childFileBase, startCliChild, type CliChildOptions } from "./cli-child.ts";
import type { DecisionRequest } from "./gate-decision.ts";

/**
 * Records a decision and resumes the run the way a person at the terminal does: `baton
 * approve|reject|answer RUN --json` as a detached child (the CLI is the only writer), with the
 * surface (`--via`) and, when the client named one, the person (`--by`). Resolves once the
 * child has reopened the run (its first line, the new `run.started`); the child's one-line
 * refusal is a 422 `resume_rejected`.
 */
export async function resumeRun(runId: string, decision: DecisionRequest, options: CliChildOptions): Promise<void> {
  // `--name=value`: a comment or a name starting with "-" is still that option's value.
  const args = [decision.kind, "--json", `--via=${decision.via}`];
  if (decision.by !== undefined) args.push(`--by=${decision.by}`);
  if (decision.comment !== undefined) args.push(`--comment=${decision.comment}`);
  args.push("--", runId);
  if (decision.kind === "answer") args.push(decision.answer ?? "");
  const first = await startCliChild(args, childFileBase(options.batonDir), options, "resume_rejected");
  if (first.type !== "run.started") throw new Error(`baton ${decision.kind} --json printed ${first.type} first, not run.started`);
}
