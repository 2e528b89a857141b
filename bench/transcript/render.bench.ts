// A run's two files at its end (`transcript.md` and the bounded `summary.md`, both from one fold
// of the events, as `baton run` writes them) for runs of many tool calls in one turn, the outputs held in
// memory (a run reads them from its trace store). A summary that fits is the transcript with its
// pointer; one that does not is laid out ever tighter (the ladder) until it fits.
// Prints medians and the ratio to the baseline; asserts nothing.
//   node bench/transcript/render.bench.ts [--rounds R] [--quick]   (default 5 rounds, quick 3 and smaller runs)
import { renderTranscript, renderTranscriptAndSummary, type TranscriptSource } from "@baton/transcript";
import { manyToolRun } from "../../packages/transcript/src/testing/events.ts";
import { fixed, median, quick, sizeArg, whole } from "../measure.ts";

const ROUNDS = sizeArg("rounds", "BATON_BENCH_ROUNDS", 5, 3);
/** Tool calls, and bytes of output each: small outputs (every summary step keeps them whole) and outputs each step cuts. */
const RUNS: readonly [number, number][] = quick
  ? [
      [1_000, 200],
      [2_000, 200],
      [500, 10_000],
    ]
  : [
      [1_000, 200],
      [10_000, 200],
      [3_000, 10_000],
    ];

function timed(body: () => void): number {
  const started = performance.now();
  body();
  return performance.now() - started;
}

console.log(`transcript and summary of a run's end: medians of ${ROUNDS} rounds; baseline: the complete transcript alone; each folds the run's events once`);
for (const [tools, outputBytes] of RUNS) {
  const { events, outputs } = manyToolRun(tools, outputBytes);
  const source: TranscriptSource = { readOutput: (file) => outputs.get(file), redact: (text) => text, runDir: ".baton/runs/run_bench" };
  const both: number[] = [];
  const alone: number[] = [];
  let sizes = { transcript: 0, summary: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    alone.push(timed(() => renderTranscript(events, source, "md")));
    both.push(
      timed(() => {
        const files = renderTranscriptAndSummary(events, source, { format: "md", completeTranscript: "transcript.md" });
        sizes = { transcript: Buffer.byteLength(files.transcript), summary: Buffer.byteLength(files.summary) };
      }),
    );
  }
  const [bothMs, aloneMs] = [median(both), median(alone)];
  const tightened = sizes.summary < sizes.transcript;
  console.log(
    `  ${whole(tools).padStart(6)} calls × ${whole(outputBytes).padStart(6)} B: both files ${fixed(bothMs, 0).padStart(5)} ms (per round ${both.map((ms) => fixed(ms, 0)).join(", ")}), the transcript alone ${fixed(aloneMs, 0).padStart(4)} ms, ratio ${fixed(bothMs / aloneMs)}; transcript ${whole(sizes.transcript)} B, summary ${whole(sizes.summary)} B${tightened ? " (laid out tighter)" : " (the transcript and its pointer)"}`,
  );
}
