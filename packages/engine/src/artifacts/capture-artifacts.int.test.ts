import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import type { RunSink } from "../run/run-sink.ts";
import { capturedSoFar, captureArtifacts } from "./capture-artifacts.ts";

/** The events a capture appends, in order (a sink that only records). */
function recordingSink(): { sink: RunSink; events: Array<[string, Record<string, unknown>]> } {
  const events: Array<[string, Record<string, unknown>]> = [];
  return { sink: { stage: { id: "test", visit: 1 }, append: (type: string, data: Record<string, unknown>) => events.push([type, data]) } as unknown as RunSink, events };
}

test("matching files are captured by sha256 once per content; .git and .baton never; a file over max_bytes is a warning", async () => {
  const cwd = await testTempDir("artifacts-ws-");
  const runDir = await testTempDir("artifacts-run-");
  await mkdir(join(cwd, "shots"), { recursive: true });
  await mkdir(join(cwd, ".git"), { recursive: true });
  await writeFile(join(cwd, "shots", "home.png"), "png bytes");
  await writeFile(join(cwd, ".git", "x.png"), "git's");
  await writeFile(join(cwd, "big.png"), "x".repeat(2_000));
  const { sink, events } = recordingSink();
  const capture = { include: ["**/*.png"], maxBytes: 1_000, cwd, runDir };
  const seen = await capturedSoFar(runDir);
  assert.equal(await captureArtifacts(sink, capture, seen), 1);
  const captured = events.filter(([type]) => type === "artifact.captured").map(([, data]) => data);
  assert.deepEqual(captured.map((data) => [data["path"], data["media_type"], data["stage"], data["bytes"]]), [["shots/home.png", "image/png", "test", 9]]);
  assert.equal(await readFile(join(runDir, "artifacts", String(captured[0]?.["sha256"])), "utf8"), "png bytes");
  assert.ok(events.some(([type, data]) => type === "log" && data["code"] === "artifact_too_large"));

  // The same content is not announced again, even by a later process of the run; a change is.
  const again = recordingSink();
  assert.equal(await captureArtifacts(again.sink, capture, await capturedSoFar(runDir)), 0);
  await writeFile(join(cwd, "shots", "home.png"), "new png bytes");
  assert.equal(await captureArtifacts(again.sink, capture, await capturedSoFar(runDir)), 1);
});
