import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** One captured file as `baton artifacts` lists it: the last capture of each path. */
export type ArtifactRow = { path: string; bytes: number; sha256: string; media_type: string; stage?: string; file: string };

/**
 * The files a run captured (`[artifacts] include`), the latest content of each path, with
 * where its copy is kept in the run's folder (`artifacts/<sha256>`).
 */
export async function artifactsCommand(ctx: CliContext, ref: string, options: { json?: boolean }): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  const byPath = new Map<string, ArtifactRow>();
  for await (const event of store.readRun(run.id, { after: 0 })) {
    if (event.type !== "artifact.captured") continue;
    const data = event.data as Record<string, unknown>;
    if (typeof data["path"] !== "string" || typeof data["sha256"] !== "string") continue;
    const row: ArtifactRow = { path: data["path"], bytes: Number(data["bytes"] ?? 0), sha256: data["sha256"], media_type: String(data["media_type"] ?? "application/octet-stream"), file: `${store.runDir(run.id)}/artifacts/${data["sha256"]}` };
    const stage = event.stage?.id ?? (typeof data["stage"] === "string" ? data["stage"] : undefined);
    byPath.set(row.path, stage === undefined ? row : { ...row, stage });
  }
  const rows = [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path));
  if (options.json === true) {
    for (const row of rows) ctx.stdout.write(`${terminalJson(row)}\n`);
    return EXIT.succeeded;
  }
  if (rows.length === 0) {
    ctx.stdout.write(`run ${run.number} captured no artifacts (set [artifacts] include = ["coverage/**", "*.png"] in .baton/config.toml)\n`);
    return EXIT.succeeded;
  }
  const width = Math.max(...rows.map((row) => row.path.length));
  for (const row of rows) {
    ctx.stdout.write(`${visibleText(row.path.padEnd(width))}  ${formatBytes(row.bytes).padStart(9)}  ${visibleText(row.media_type).padEnd(24)}  ${visibleText(row.stage ?? "-").padEnd(12)}  ${visibleText(row.file)}\n`);
  }
  return EXIT.succeeded;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
