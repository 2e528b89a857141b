import type { Envelope, StageScope } from "@baton/protocol/core";
import { definedFields } from "@baton/protocol/core";

/** Builds a run's log for tests: envelopes with seq from 1 and times a millisecond apart. */
export function logBuilder(run = "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A", start = Date.parse("2026-11-29T10:00:00.000Z")) {
  const events: Envelope[] = [];
  return {
    events,
    add(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope {
      const seq = events.length + 1;
      const event: Envelope = { v: 1, run, seq, at: new Date(start + seq).toISOString(), type, data, ...definedFields({ stage }) };
      events.push(event);
      return event;
    },
  };
}

/** A run of `tools` tool calls in one turn, each with `outputBytes` of output in the trace store. */
export function manyToolRun(tools: number, outputBytes: number): { events: Envelope[]; outputs: Map<string, string> } {
  const log = logBuilder();
  const outputs = new Map<string, string>();
  log.add("run.created", { number: 7, task: "run many tools", agent: "fake", repo: { root: "/repo", dirty: false } });
  log.add("turn.started", { session: "s1", turn: 1, reason: "task" });
  for (let i = 1; i <= tools; i += 1) {
    log.add("agent.message", { session: "s1", turn: 1, text: `Now running tool ${i}. PROSE-${i}-END` });
    log.add("tool.started", { session: "s1", call: `c_${i}`, tool: "bash", kind: "execute", title: `step ${i}`, input: { command: `seq ${i}` } });
    const file = `outputs/c_${i}.txt`;
    outputs.set(file, `HEAD-${i} ${"o".repeat(outputBytes)} TAIL-${i}`);
    log.add("tool.completed", { session: "s1", call: `c_${i}`, tool: "bash", status: "completed", is_error: false, duration_ms: i, exit_code: 0, output_chars: outputBytes, preview: `HEAD-${i}`, output_file: file });
  }
  log.add("turn.completed", { session: "s1", turn: 1, stop_reason: "end_turn", duration_ms: 5, usage: { input_tokens: 10, output_tokens: 5 } });
  log.add("run.completed", { status: "succeeded", usage: { input_tokens: 10, output_tokens: 5 }, active_ms: 5, duration_ms: 5, commit: "abc123" });
  return { events: log.events, outputs };
}
