import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { openStartsOf, type Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { fakeAgentCommand } from "@baton/testkit/launch";
import { hasExited, readProcTable } from "../process-tree/proc-table.ts";
import { Redactor } from "../redaction/redactor.ts";
import { AGENT_TREE_ENV } from "./agent-process.ts";
import { runAgentSession } from "./agent-session.ts";

/** Events as the session appends them, enveloped with seqs so the protocol's folds can read them. */
function collectingSink() {
  const events: Envelope[] = [];
  const waiters: Array<{ type: string; resolve: () => void }> = [];
  return {
    events,
    appeared: (type: string) =>
      new Promise<void>((resolve) => (events.some((event) => event.type === type) ? resolve() : waiters.push({ type, resolve }))),
    append(type: string, data: Record<string, unknown>) {
      events.push({ v: 1, run: "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A", seq: events.length + 1, at: new Date().toISOString(), type, data });
      for (const waiter of waiters.filter((w) => w.type === type)) waiter.resolve();
    },
    publish() {},
  };
}

test("Baton failing in the middle of a turn still closes the tool call and the turn, ends the agent and everything it started", async () => {
  const dir = await testTempDir("agent-session-");
  const script = join(dir, "script.json");
  await writeFile(script, JSON.stringify([{ say: "building" }, { run: "sleep 300" }]));
  const sink = collectingSink();
  const { command, args } = fakeAgentCommand(script);
  const outcome = await runAgentSession({
    agentName: "fake",
    command: { command, args, env: { PATH: process.env["PATH"] ?? "" }, cwd: dir, runId: "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A" },
    sink,
    redactor: new Redactor([]),
    transcriptPath: join(dir, "acp.jsonl"),
    rules: [],
    cancelGraceMs: 1000,
    signal: new AbortController().signal,
    now: () => new Date(),
    clientVersion: "test",
    conduct: async (live) => {
      live.prompt("Build it", "task");
      await sink.appeared("tool.started");
      // The command runs: a process of the agent's tree, in a session of its own.
      while (agentProcesses().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("a bug in Baton");
    },
  });

  assert.equal(outcome.kind, "failed");
  assert.deepEqual(outcome.kind === "failed" ? outcome.error : undefined, { code: "internal", message: "Baton failed while running the agent: a bug in Baton" });
  assert.deepEqual(openStartsOf(sink.events), [], "every start has its end");
  assert.equal(sink.events.at(-1)?.type, "agent.finished");
  const turn = sink.events.find((event) => event.type === "turn.completed");
  assert.equal(turn?.data["stop_reason"], "error");
  assert.deepEqual(agentProcesses(), [], "no process of the agent is left");
});

/** Live processes whose environment names this test's run in the agent's tree tag. */
function agentProcesses(): number[] {
  const tag = `${AGENT_TREE_ENV}=run_01JD7Q2W3E4R5T6Y7U8I9O0P1A/`;
  return [...readProcTable().values()].filter((entry) => !hasExited(entry) && readEnv(entry.pid).includes(tag)).map((entry) => entry.pid);
}

function readEnv(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return "";
  }
}
