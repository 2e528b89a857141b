import { openStore } from "@baton/engine/store";

/** A run of `turns` turns of `toolsPerTurn` tool calls each: 2 + turns × (2 + 2 × toolsPerTurn) + 1 events. */
export type ToolRunShape = { turns: number; toolsPerTurn: number };

/** Spans such a run makes: the run's, one per turn, one per tool call. */
export function spanCount(shape: ToolRunShape): number {
  return 1 + shape.turns * (1 + shape.toolsPerTurn);
}

/** Writes such a run into the store at `batonDir` (created with `baton init`'s layout) and returns its id. */
export async function writeToolRun(batonDir: string, shape: ToolRunShape): Promise<string> {
  await using store = await openStore(batonDir, { liveEvents: false });
  const writer = await store.createRun({ task: "replay", agent: "fake", repo: { root: "/r", dirty: false } });
  writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "bench" });
  for (let turn = 1; turn <= shape.turns; turn += 1) {
    writer.append("turn.started", { session: "ses_1", turn, reason: turn === 1 ? "task" : "resend" });
    for (let tool = 1; tool <= shape.toolsPerTurn; tool += 1) {
      const call = `c_${turn}_${tool}`;
      writer.append("tool.started", { session: "ses_1", call, tool: "bash", kind: "execute", input: { command: "true" } });
      writer.append("tool.completed", { session: "ses_1", call, tool: "bash", status: "completed", is_error: false, duration_ms: 1, exit_code: 0, output_chars: 0 });
    }
    writer.append("turn.completed", { session: "ses_1", turn, stop_reason: "end_turn", duration_ms: 5, usage: { input_tokens: 10, output_tokens: 2 } });
  }
  writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 10, output_tokens: 2 }, active_ms: 1, duration_ms: 1 });
  await writer.close();
  return writer.runId;
}
