import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { Store } from "@baton/engine/store";
import { apiError } from "../http/api-errors.ts";
import type { ServerApp } from "../http/server-app.ts";
import { getArtifactRoute, listArtifactsRoute } from "./contract/views.ts";

/** A captured file as the API lists it: the last capture of each path. */
type ArtifactItem = { path: string; bytes: number; sha256: string; media_type: string; stage?: string; url: string };

const SHA256 = /^[0-9a-f]{64}$/;
/** Shown in the page itself: pictures. Anything else is offered as a download, never rendered from Baton's origin. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** `GET /api/runs/:ref/artifacts` (the list) and `GET /api/runs/:ref/artifacts/:digest` (one file's bytes). */
export function addArtifactsRoutes(app: ServerApp, options: { store: Store }): void {
  const { store } = options;

  app.openapi(listArtifactsRoute, async (c) => {
    const run = await store.resolveRun(c.req.valid("param").ref);
    return c.json({ artifacts: await artifactsOf(store, run.id, run.number) }, 200);
  });

  app.openapi(getArtifactRoute, async (c) => {
    const { ref, digest: sha256 } = c.req.valid("param");
    const run = await store.resolveRun(ref);
    const item = (await artifactsOf(store, run.id, run.number, true)).find((artifact) => artifact.sha256 === sha256);
    if (item === undefined) throw apiError("artifact_not_found", `run ${run.number} captured no file with sha256 ${sha256}`, "GET /api/runs/RUN/artifacts lists them");
    // O_NOFOLLOW: a symlink planted in artifacts/ is not followed out of the run's folder.
    const handle = await open(join(store.runDir(run.id), "artifacts", sha256), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (handle === undefined) throw apiError("artifact_not_found", `the copy of ${item.path} is gone from run ${run.number}'s folder`);
    try {
      if (!(await handle.stat()).isFile()) throw apiError("artifact_not_found", `the copy of ${item.path} is not a file`);
      const bytes = await handle.readFile();
      const inline = INLINE_TYPES.has(item.media_type);
      const name = item.path.split("/").at(-1) ?? "artifact";
      return c.body(new Uint8Array(bytes), 200, {
        "Content-Type": inline ? item.media_type : item.media_type.startsWith("text/") ? "text/plain; charset=utf-8" : "application/octet-stream",
        "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox; default-src 'none'",
      });
    } finally {
      await handle.close();
    }
  });
}

async function artifactsOf(store: Store, runId: string, number: number, everyCapture = false): Promise<ArtifactItem[]> {
  const items = new Map<string, ArtifactItem>();
  for await (const event of store.readRun(runId, { after: 0 })) {
    if (event.type !== "artifact.captured") continue;
    const data = event.data as Record<string, unknown>;
    if (typeof data["path"] !== "string" || typeof data["sha256"] !== "string" || !SHA256.test(data["sha256"])) continue;
    const stage = event.stage?.id;
    const item: ArtifactItem = { path: data["path"], bytes: Number(data["bytes"] ?? 0), sha256: data["sha256"], media_type: String(data["media_type"] ?? "application/octet-stream"), url: `/api/runs/${number}/artifacts/${data["sha256"]}` };
    items.set(everyCapture ? `${item.path}\0${item.sha256}` : item.path, stage === undefined ? item : { ...item, stage });
  }
  return [...items.values()].sort((a, b) => a.path.localeCompare(b.path));
}
