import type { RunSummary } from "@baton/engine/store";
import { formatDuration } from "../render/style.ts";

/** One row of the run list: what `baton tui` shows of a run. */
export type RunRow = { number: string; status: string; agent: string; duration: string; task: string };

export const RUN_COLUMNS: ReadonlyArray<{ key: keyof RunRow; title: string; width: number }> = [
  { key: "number", title: "#", width: 5 },
  { key: "status", title: "STATUS", width: 10 },
  { key: "agent", title: "AGENT", width: 10 },
  { key: "duration", title: "TIME", width: 11 },
  { key: "task", title: "TASK", width: 0 },
];

/** A run's row: a running run's time counts up to `now`. */
export function runRow(run: RunSummary, now: number): RunRow {
  const started = run.started_at === undefined ? undefined : Date.parse(run.started_at);
  const ended = run.ended_at === undefined ? now : Date.parse(run.ended_at);
  return {
    number: String(run.number),
    status: run.status,
    agent: run.agent ?? "",
    duration: started === undefined ? "" : formatDuration(Math.max(0, ended - started)),
    task: (run.task ?? "").split("\n")[0] ?? "",
  };
}

/** A row as one line of `width` columns: each column cut or padded to its width, the task taking the rest. */
export function rowLine(row: RunRow, width: number): string {
  let line = "";
  for (const column of RUN_COLUMNS) {
    const room = column.width === 0 ? Math.max(0, width - line.length) : column.width;
    const value = row[column.key];
    line += column.width === 0 ? cut(value, room) : `${cut(value, room - 1).padEnd(room - 1)} `;
  }
  return line;
}

export function headerLine(width: number): string {
  return rowLine({ number: "#", status: "STATUS", agent: "AGENT", duration: "TIME", task: "TASK" }, width);
}

function cut(text: string, room: number): string {
  if (room <= 0) return "";
  return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`;
}
