// The contract of the views the web UI reads: a run's change (diff-routes.ts), the run list's
// figures (overview-routes.ts), and the files a run captured (artifacts-routes.ts).

import { createRoute, z } from "@hono/zod-openapi";
import { runSummarySchema } from "./components.ts";
import { limitField, refParam, statusQuery } from "./fields.ts";
import { errorResponses, json, runListAt } from "./responses.ts";

const refParams = z.object({ ref: refParam });

const diffFileSchema = z
  .object({
    path: z.string(),
    old_path: z.string().optional().openapi({ description: "the path before a rename" }),
    change: z.enum(["added", "deleted", "modified", "renamed"]),
    binary: z.boolean(),
    added: z.number().int().min(0).openapi({ description: "added lines" }),
    removed: z.number().int().min(0).openapi({ description: "removed lines" }),
    patch: z.string().openapi({ description: "the file's hunks from its first @@ (empty for a binary file), cut at 200,000 characters (2,000,000 for all files)" }),
    truncated: z.boolean().openapi({ description: "patch was cut; the counts are whole" }),
  })
  .openapi("DiffFile");

export const runDiffSchema = z
  .object({
    source: z.enum(["commit", "workspace"]).openapi({ description: "commit: the run's commit against its base; workspace: its working changes (no commit yet)" }),
    base_sha: z.string().optional(),
    commit: z.string().optional(),
    branch: z.string().optional(),
    added: z.number().int().min(0),
    removed: z.number().int().min(0),
    files: z.array(diffFileSchema),
  })
  .openapi("RunDiff");

export const runOverviewSchema = z
  .object({
    id: z.string(),
    number: z.number().int().min(1),
    status: z.string(),
    duration_ms: z.number().int().min(0).optional(),
    cost_usd: z.number().min(0).optional(),
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    stage: z.string().optional().openapi({ description: "the stage running now, or the gate a paused run waits at" }),
    branch: z.string().optional(),
    waiting: z.enum(["gate", "permission", "question"]).optional().openapi({ description: "the run waits for a person: a gate, a permission question an `ask` rule put, or a question the agent asked" }),
  })
  .openapi("RunOverview", { description: "What the run list shows of a run besides its catalog row: folded from its events." });

export const artifactSchema = z
  .object({
    path: z.string(),
    bytes: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    media_type: z.string(),
    stage: z.string().optional(),
    url: z.string().openapi({ description: "where its bytes are served" }),
  })
  .openapi("Artifact", { description: "A captured file: the last capture of its path." });

export const runDiffRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/diff",
  operationId: "getRunDiff",
  summary: "What the run changed (baton diff), by file",
  description:
    "The run's commit against its base once committed (source: commit), else its workspace's working changes, untracked files included (source: workspace). 409 no_workspace before its workspace is ready, or when it made no commit and its workspace is gone.",
  request: { params: refParams },
  responses: {
    200: { description: "the change", content: json(z.object({ run: runSummarySchema, diff: runDiffSchema })) },
    ...errorResponses([400, 404, 409], { 409: "no workspace to diff (no_workspace)" }),
  },
});

export const overviewRoute = createRoute({
  method: "get",
  path: "/api/overview",
  operationId: "getOverview",
  summary: "The newest runs with their figures (duration, cost, tokens, stage, branch) and whether a person is awaited",
  request: { query: z.object({ status: statusQuery, limit: limitField(200, 50) }) },
  responses: {
    200: { description: "newest first, and the feed position they were read at", content: json(runListAt(runOverviewSchema)) },
    ...errorResponses([400]),
  },
});

export const listArtifactsRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/artifacts",
  operationId: "listArtifacts",
  summary: "The files the run captured ([artifacts] include): path, bytes, sha256, media type, stage, url",
  request: { params: refParams },
  responses: { 200: { description: "the list, by path", content: json(z.object({ artifacts: z.array(artifactSchema) })) }, ...errorResponses([400, 404]) },
});

const digestMessage = (issue: { input?: unknown }) => `"${String(issue.input).slice(0, 80)}" is not a sha256`;

export const getArtifactRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/artifacts/{digest}",
  operationId: "getArtifact",
  summary: "One captured file's bytes: pictures inline, anything else as a download",
  request: { params: z.object({ ref: refParam, digest: z.string().regex(/^[0-9a-f]{64}$/, { error: digestMessage }).openapi({ description: "the sha256 of an artifact.captured event" }) }) },
  responses: {
    200: {
      description: "the file: PNG, JPEG, GIF and WebP inline as themselves, text as text/plain, anything else as application/octet-stream (Content-Disposition attachment)",
      content: Object.fromEntries(
        ["image/png", "image/jpeg", "image/gif", "image/webp", "text/plain", "application/octet-stream"].map((type) => [type, { schema: { type: "string" as const, format: "binary" } }]),
      ),
    },
    ...errorResponses([400, 404], { 404: "no such run, or it captured no such file (run_not_found, artifact_not_found)" }),
  },
});
