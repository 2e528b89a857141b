import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { cliEnv, eventsOfType, readEvents, readTranscriptText, runBaton, startBaton, waitForEvent, waitForOnlyRun, workspacePath } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

// `hold` waits (on the file `go` in the workspace) so that an input comes between agent stages.
const WORKFLOW = `digraph steer {
  goal = "Build it"
  start [shape=Mdiamond]
  hold [shape=parallelogram, script="while [ ! -e go ]; do sleep 0.05; done; echo held"]
  build [label="Build", prompt="Build: {{ goal }}"]
  approve [shape=hexagon, label="Ship it?"]
  exit [shape=Msquare]
  start -> hold -> build -> approve
  approve -> exit [label="[A] Approve"]
  approve -> build [label="[R] Revise"]
}
`;

test("an input sent between agent stages rides on the next stage's prompt; attach asks the gate inline and /approve takes the run to its end", async (t) => {
  const { repo, script } = await workflowProject("steer", WORKFLOW, { build: [{ write: { path: "BUILD.md", content: "built\n" } }, { say: "built it" }] }, "cli-attach-wf-");
  const env = cliEnv({ USER: "ada" });
  const run = startBaton(repo, ["run", "--workflow", "steer", "--script", script, "--yes", "--timeout", "5m"], { env });
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the hold stage", (event) => event.type === "stage.started" && event.data["stage"] === "hold");

  const steer = await runBaton(repo, ["steer", "1", "Name the file BUILD.md."], { env });
  assert.equal(steer.code, 0, steer.stderr);
  await writeFile(join(await workspacePath(repo, runId), "go"), "");
  const paused = await run.done;
  assert.equal(paused.code, 4, paused.stderr + paused.stdout);
  let events = await readEvents(repo, runId);
  const [delivered] = eventsOfType(events, "input.delivered");
  assert.equal(delivered?.data["how"], "with_prompt");
  assert.equal(delivered?.stage, undefined);
  assert.match(await readTranscriptText(repo, runId), /Build: Build it[\s\S]*Message from ada, a person watching this run[\s\S]*Name the file BUILD\.md\./);

  const attach = startBaton(repo, ["attach", "1"], { stdin: true, env });
  t.after(() => attach.kill());
  await attach.waitForStdout("the attach line", (out) => out.includes("— attached to run 1")).catch((error: unknown) => {
    throw new Error(`${String(error)}\nstderr: ${attach.stderr}`);
  });
  assert.match(attach.stdout, /\? run 1 waits at gate approve: \/approve, \/reject, or \/answer one of: Approve \(A\), Revise \(R\)\n/);
  attach.child.stdin?.write("/approve ship it\n");
  const ended = await attach.done;
  assert.equal(ended.code, 0, ended.stderr + ended.stdout);
  assert.match(ended.stdout, /answered gate approve \(approve\); the run goes on/);
  assert.match(ended.stdout, /✔ succeeded/);
  events = await readEvents(repo, runId);
  const [resolved] = eventsOfType(events, "approval.resolved");
  assert.equal(resolved?.data["by"], "ada");
  assert.equal(resolved?.data["via"], "terminal");
  assert.equal(events.at(-1)?.type, "run.completed");
  assertWellClosed(events);
});
