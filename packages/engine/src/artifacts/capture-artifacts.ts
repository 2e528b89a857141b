import { createHash } from "node:crypto";
import { glob, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { definedFields } from "@baton/protocol/core";
import type { RunSink } from "../run/run-sink.ts";
import { mediaTypeOf } from "./media-type.ts";

/** The folder of a run's captured files, named by their sha256. */
export const ARTIFACTS_DIR = "artifacts";

export type ArtifactCapture = {
  include: readonly string[];
  maxBytes: number;
  /** The workspace the globs are read in. */
  cwd: string;
  runDir: string;
};

/** What the run captured so far, path → sha256, kept beside the copies: a resumed run does not announce them again. */
const SEEN_FILE = "captured.json";

/** The captures an earlier process of this run recorded (empty for a new run). */
export async function capturedSoFar(runDir: string): Promise<Map<string, string>> {
  const text = await readFile(join(runDir, ARTIFACTS_DIR, SEEN_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return new Map();
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return new Map(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return new Map();
  }
}

/** Never captured, whatever a glob says: git's and Baton's own state. */
const NEVER = [".git", ".baton"];

/**
 * Captures the files of the workspace that match `include` into `<run>/artifacts/<sha256>` and
 * records an `artifact.captured` for each path whose content is new since the last capture of
 * this run (`seen`: path → sha256). A file over `maxBytes`, or one that cannot be read, is a
 * `log` warning, never a failure of the run.
 */
export async function captureArtifacts(sink: RunSink, capture: ArtifactCapture, seen: Map<string, string>): Promise<number> {
  if (capture.include.length === 0) return 0;
  const paths = new Set<string>();
  for (const pattern of capture.include) {
    for await (const found of glob(pattern, { cwd: capture.cwd, exclude: (name: string) => NEVER.includes(basename(name)) })) {
      const path = relative(capture.cwd, join(capture.cwd, found)).split(sep).join("/");
      if (!path.startsWith("..") && !path.split("/").some((part) => NEVER.includes(part))) paths.add(path);
    }
  }
  let captured = 0;
  const dir = join(capture.runDir, ARTIFACTS_DIR);
  for (const path of [...paths].sort()) {
    const source = join(capture.cwd, path);
    const info = await stat(source).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    if (info.size > capture.maxBytes) {
      sink.append("log", { level: "warn", code: "artifact_too_large", message: `${path} is ${info.size} bytes, over [artifacts] max_bytes (${capture.maxBytes}): not captured` });
      continue;
    }
    try {
      const content = await readFile(source);
      const sha256 = createHash("sha256").update(content).digest("hex");
      if (seen.get(path) === sha256) continue;
      await mkdir(dir, { recursive: true });
      const target = join(dir, sha256);
      if ((await stat(target).catch(() => undefined)) === undefined) {
        // The bytes hashed are the bytes kept, written beside and renamed: a reader never sees half a file under its sha256.
        const partial = `${target}.partial`;
        await writeFile(partial, content);
        await rename(partial, target);
      }
      seen.set(path, sha256);
      sink.append("artifact.captured", definedFields({ path, bytes: content.length, sha256, media_type: mediaTypeOf(path), stage: sink.stage?.id }));
      captured += 1;
    } catch (error) {
      sink.append("log", { level: "warn", code: "artifact_unreadable", message: `could not capture ${path}: ${(error as Error).message}` });
    }
  }
  if (captured > 0) await writeFile(join(dir, SEEN_FILE), `${JSON.stringify(Object.fromEntries(seen))}\n`);
  return captured;
}
