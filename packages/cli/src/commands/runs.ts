import { EXIT, type CliContext } from "../context.ts";
import { writeLine } from "../output.ts";
import { locateProject } from "../project.ts";
import { formatDuration, stylerFor } from "../render/style.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";
import { definedFields } from "@baton/protocol/core";

export async function runsCommand(ctx: CliContext, options: { json?: boolean; status?: string }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const runs = await store.listRuns(definedFields({ status: options.status }));
  if (options.json) {
    for (const run of runs) await writeLine(ctx.stdout, terminalJson(run));
    return EXIT.succeeded;
  }
  if (runs.length === 0) {
    ctx.stdout.write(
      options.status === undefined
        ? "No runs yet. Start one with: baton run \"TASK\" --agent fake --script FILE\n"
        : `No runs with status ${visibleText(options.status)}. See them all with: baton runs\n`,
    );
    return EXIT.succeeded;
  }
  const style = stylerFor(ctx.stdout);
  // Every cell comes from the runs' logs (the task, and ids and times from any writer).
  const rows = runs.map((run) =>
    [
      String(run.number),
      run.id,
      run.status,
      run.started_at ?? run.created_at ?? "-",
      formatDuration(durationOf(run.started_at ?? run.created_at, run.ended_at)),
      oneLine(run.task ?? "", 60),
    ].map((cell) => visibleText(cell)),
  );
  const header = ["#", "ID", "STATUS", "STARTED", "DURATION", "TASK"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const format = (row: string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ");
  ctx.stdout.write(`${style("bold", format(header))}\n`);
  for (const row of rows) ctx.stdout.write(`${format(row)}\n`);
  return EXIT.succeeded;
}

function durationOf(start: string | undefined, end: string | undefined): number | undefined {
  if (start === undefined) return undefined;
  const until = end === undefined ? Date.now() : Date.parse(end);
  return Math.max(0, until - Date.parse(start));
}

function oneLine(text: string, max: number): string {
  const line = text.replaceAll(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
