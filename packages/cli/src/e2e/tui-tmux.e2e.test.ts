import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { BATON_BIN, cliEnv, eventsOfType, onlyRunId, readEvents, runBaton, waitFor, waitForEvent, WAIT_TIMEOUT_MS } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

const run = promisify(execFile);

/** tmux, when the machine has it: the test drives `baton tui` in it with send-keys and reads it with capture-pane. */
function tmuxVersion(): string | undefined {
  try {
    return execFileSync("tmux", ["-V"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

const TMUX = tmuxVersion();
if (TMUX === undefined && process.env["BATON_REQUIRE_TMUX"] !== undefined) {
  throw new Error("BATON_REQUIRE_TMUX is set but tmux is not installed: install it (apt-get install tmux) to run baton tui's end-to-end test");
}

const GATED = `digraph gated {
  goal = "Refactor the module"
  start [shape=Mdiamond]
  approve [shape=hexagon, label="Start the work?"]
  work [prompt="Refactor the module"]
  exit [shape=Msquare]
  start -> approve
  approve -> work [label="[A] Approve"]
  work -> exit
}
`;

/** A tmux server of this test's own (its own socket, no user config): nothing else's sessions are touched. */
class Tmux {
  readonly socket = `baton-tui-test-${process.pid}`;

  async start(cwd: string, env: Record<string, string>, command: string[]): Promise<void> {
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    await this.tmux("new-session", "-d", "-s", "tui", "-x", "110", "-y", "30", "-c", cwd, "env", "-i", ...assignments, ...command);
  }

  async keys(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", "tui", ...keys);
  }

  /** Text typed as it is (no key names). */
  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-t", "tui", "-l", text);
  }

  async screen(): Promise<string> {
    return (await this.tmux("capture-pane", "-p", "-t", "tui")).stdout;
  }

  /** Waits until the pane shows `pattern`; the pane's text is in the error otherwise. */
  async until(pattern: RegExp, what: string): Promise<string> {
    let last = "";
    await waitFor(`${what} on the screen`, async () => {
      last = await this.screen().catch(() => last);
      return pattern.test(last);
    }).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; the screen:\n${last}`);
    });
    return last;
  }

  async stop(): Promise<void> {
    await this.tmux("kill-server").catch(() => undefined);
  }

  tmux(...args: string[]) {
    return run("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { timeout: WAIT_TIMEOUT_MS });
  }
}

test("baton tui in tmux: a run paused at a gate is opened, approved with y, and steered with s and a typed line; the run goes on to its end", { skip: TMUX === undefined ? "tmux is not installed (set BATON_REQUIRE_TMUX to make that a failure)" : false }, async (t) => {
  const { repo, script } = await workflowProject("gated", GATED, {
    work: [{ say: "working on it" }, { wait_for_notice: "keep the public API" }, { write: { path: "done.txt", content: "done\n" } }, { say: "heard you" }],
  }, "cli-tui-tmux-");
  const paused = await runBaton(repo, ["run", "--workflow", "gated", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(paused.code, 4, paused.stderr + paused.stdout);
  const runId = await onlyRunId(repo);

  const tmux = new Tmux();
  t.after(() => tmux.stop());
  await tmux.start(repo, { ...cliEnv({ USER: "ada" }), TERM: "screen" }, [process.execPath, BATON_BIN, "tui"]);
  await tmux.until(/1 runs · Enter open/, "the run list");
  assert.match(await tmux.screen(), /^1\s+paused\s+fake\s+.*Refactor the module/m);

  await tmux.keys("Enter");
  const gate = await tmux.until(/gate approve waits: Start the work\?/, "the gate that waits");
  assert.match(gate, /^run 1 · paused · stage approve · fake/m);
  await tmux.keys("y");
  const resolved = await waitForEvent(repo, runId, "the gate's answer", (event) => event.type === "approval.resolved");
  assert.deepEqual([resolved.data["choice"], resolved.data["by"], resolved.data["via"]], ["Approve", "ada", "terminal"]);
  await waitForEvent(repo, runId, "the agent at work", (event) => event.type === "turn.started" && event.stage?.id === "work" && event.data["reason"] === "task");
  await tmux.until(/^run 1 · running · stage work/m, "the resumed run");

  await tmux.keys("s");
  await tmux.until(/steer the agent: ▏/, "the input line");
  await tmux.type("Please keep the public API unchanged.");
  await tmux.until(/steer the agent: Please keep the public API unchanged\.▏/, "the typed line");
  await tmux.keys("Enter");
  await tmux.until(/sent to the agent of run 1/, "the steer's outcome");
  await waitForEvent(repo, runId, "the run's end", (event) => event.type === "run.completed");
  await tmux.until(/^run 1 · succeeded/m, "the run's end");

  const events = await readEvents(repo, runId);
  const [queued] = eventsOfType(events, "input.queued");
  assert.equal(queued?.data["by"], "ada");
  assert.equal(queued?.data["text"], "Please keep the public API unchanged.");
  assert.equal(eventsOfType(events, "input.delivered")[0]?.data["how"], "mid_turn");
  assert.ok(eventsOfType(events, "agent.message").some((event) => event.data["text"] === "heard you"));
  assertWellClosed(events);

  await tmux.keys("q");
  await waitFor("baton tui to quit on q", async () => (await tmux.tmux("list-sessions").catch(() => undefined)) === undefined);
});
