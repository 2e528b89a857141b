import type { SessionOutcome } from "../acp/agent-session.ts";
import type { SessionEnd } from "../acp/agent-session.ts";
import { newConductor, runAgentSessionSafely, type AgentSessionRun } from "../run/agent-run.ts";
import type { RunSink } from "../run/run-sink.ts";
import { fixPrompt, runValidation, type ValidationSpec, type ValidationVerdict } from "./run-validation.ts";

export type ValidatedOutcome = { outcome: SessionOutcome; validation?: ValidationVerdict | undefined };

/**
 * Runs the agent on its task, then validates its work while its session is still open: a
 * failing command goes back to the same session as a fix prompt (a turn of its own, under a
 * conductor of its own: the run's limits still count from the run's start), up to
 * `maxFixRounds` times. Validation runs only after a turn that ended its task well; the last
 * verdict is returned with the session's outcome.
 */
export async function runValidatedAgent(sink: RunSink, run: AgentSessionRun & { prompt: string; startedAt: number }, spec: ValidationSpec): Promise<ValidatedOutcome> {
  let conductor = newConductor(sink, run);
  let verdict: ValidationVerdict | undefined;
  const conduct = async (live: Parameters<typeof conductor.conduct>[0]): Promise<SessionEnd> => {
    let end = await conductor.conduct(live);
    for (let round = 0; ; round += 1) {
      if (end.kind !== "completed" || end.stopReason !== "end_turn" || run.signal.aborted) return end;
      verdict = await runValidation(sink, spec, { cwd: run.workspace.path, round, signal: run.signal });
      if (verdict.passed || round >= spec.maxFixRounds || run.signal.aborted) return end;
      sink.append("validation.fix_requested", { round: round + 1, max_rounds: spec.maxFixRounds, commands: verdict.failures.map((failure) => failure.command) });
      conductor = newConductor(sink, { ...run, prompt: fixPrompt(verdict, round + 1, spec.maxFixRounds), promptReason: "fix" });
      end = await conductor.conduct(live);
    }
  };
  const outcome = await runAgentSessionSafely(sink, run, { conduct, onToolFinished: (call) => conductor.onToolFinished(call) });
  return { outcome, validation: verdict };
}
