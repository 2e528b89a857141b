import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { test } from "node:test";
import { promisify } from "node:util";
import { isBatonError } from "@baton/engine/errors";
import { openStore } from "@baton/engine/store";
import type { StageScope } from "@baton/protocol/core";
import { SAMPLE_DATA, testTempDir } from "@baton/protocol/testing";
import type { CliContext } from "../context.ts";
import { traceCommand, type TraceOptions } from "./trace.ts";

/** A repository holding one workflow run in which two stages (and a second visit) each made a `call_1`. */
async function repoWithRepeatedCall(): Promise<string> {
  const repo = await testTempDir("cli-trace-repeated-");
  await promisify(execFile)("git", ["init", "-q"], { cwd: repo });
  await mkdir(join(repo, ".baton"));
  await using store = await openStore(join(repo, ".baton"));
  await using writer = await store.createRun({ task: "Plan then build", agent: "fake", repo: { root: repo, dirty: false } });
  writer.append("run.started", SAMPLE_DATA["run.started"]);
  const visits: [StageScope, string][] = [
    [{ id: "plan", visit: 1 }, "planned"],
    [{ id: "build", visit: 1 }, "built once"],
    [{ id: "build", visit: 2 }, "built again"],
  ];
  await mkdir(join(writer.dir, "outputs"));
  for (const [index, [stage, output]] of visits.entries()) {
    const file = `outputs/call_1${index === 0 ? "" : `-${index + 1}`}.txt`;
    await writeFile(join(writer.dir, file), output);
    writer.append("tool.started", { session: `s${index}`, call: "call_1", tool: "run", kind: "execute", title: "run it" }, stage);
    writer.append("tool.completed", { session: `s${index}`, call: "call_1", tool: "run", status: "completed", is_error: false, duration_ms: 1, output_chars: output.length, output_file: file }, stage);
  }
  await writer.flush();
  return repo;
}

async function trace(repo: string, options: TraceOptions): Promise<string> {
  let out = "";
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const ctx: CliContext = { cwd: repo, env: {}, stdout, stderr: stdout, signal: new AbortController().signal, stdoutClosed: new AbortController().signal };
  assert.equal(await traceCommand(ctx, "1", "call_1", options), 0);
  return out;
}

async function traceError(repo: string, options: TraceOptions): Promise<{ code: string; line: string }> {
  try {
    await trace(repo, options);
  } catch (error) {
    assert.ok(isBatonError(error), String(error));
    return { code: error.code, line: error.toLine() };
  }
  assert.fail("expected an error");
}

test("a call id that several stages used: --stage or --seq picks one, and without them the error lists each", async () => {
  const repo = await repoWithRepeatedCall();
  assert.equal(await trace(repo, { stage: "plan" }), "planned\n");
  assert.equal(await trace(repo, { stage: "build@2" }), "built again\n");
  // tool.completed of build@1 is the 7th event: run.created, run.started, then a start and an end per call.
  assert.equal(await trace(repo, { seq: 6 }), "built once\n");

  const ambiguous = await traceError(repo, {});
  assert.equal(ambiguous.code, "ambiguous_call");
  assert.match(ambiguous.line, /has 3 tool calls "call_1": plan@1 \(seq 4\), build@1 \(seq 6\), build@2 \(seq 8\).*--stage STAGE@VISIT/);
  const twoVisits = await traceError(repo, { stage: "build" });
  assert.match(twoVisits.line, /has 2 tool calls "call_1": build@1 \(seq 6\), build@2 \(seq 8\)/);
  const noSuchStage = await traceError(repo, { stage: "review" });
  assert.equal(noSuchStage.code, "unknown_call");
  assert.match(noSuchStage.line, /no completed tool call "call_1" in stage review.*plan@1 \(seq 4\)/);
  const wrongSeq = await traceError(repo, { seq: 5 });
  assert.match(wrongSeq.line, /no completed tool call "call_1" at seq 5/);
});
