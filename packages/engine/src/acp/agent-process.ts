import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Readable } from "node:stream";
import { BatonError } from "../errors.ts";
import { AGENT_TREE_ENV, agentTreeTag } from "../process-tree/agent-tree-tag.ts";
import { ProcessTree } from "../process-tree/process-tree.ts";

export { AGENT_TREE_ENV };

/** How an agent is started. `env` is the whole environment it gets: nothing is inherited. */
export type AgentCommand = {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** The run the agent works for: named in its `BATON_AGENT_TREE` (see agent-tree-tag.ts). */
  runId?: string;
};

/** Lines of the agent's standard error kept for error messages. */
const STDERR_LINES_KEPT = 20;

export type AgentExit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * An agent child process in its own session and process group, so that it and everything it
 * starts can be signalled together: agents spawn shells and helpers that would otherwise
 * outlive a cancel. Commands that leave the group (agents run them in sessions of their own)
 * are tracked as the agent's process tree, and all of it is killed when the agent ends: when
 * it exits or is stopped, whatever the reason, and when Baton itself exits.
 */
export class AgentProcess implements AsyncDisposable {
  readonly #child: ChildProcess;
  readonly #stderr: string[] = [];
  readonly exited: Promise<AgentExit>;
  #exit: AgentExit | undefined;
  /** Undefined where /proc cannot be read: then only the agent's process group is ended. */
  readonly #tree: ProcessTree | undefined;
  #treeEnded = false;
  readonly #onBatonExit = () => this.#endTree();

  private constructor(child: ChildProcess, tree: ProcessTree | undefined) {
    this.#child = child;
    this.#tree = tree;
    if (tree !== undefined) {
      // Every process with an agent adds one listener; a server runs many agents at once.
      process.setMaxListeners(process.getMaxListeners() + 1);
      process.once("exit", this.#onBatonExit);
    }
    this.exited = once(child, "exit").then(([code, signal]) => {
      this.#exit = { code: code as number | null, signal: signal as NodeJS.Signals | null };
      // What the agent started dies with it, also when it died on its own (a crash, a kill -9).
      this.#endTree();
      return this.#exit;
    });
    // A write to an agent that has exited must not crash Baton: its exit is reported instead.
    child.stdin?.on("error", () => {});
    let partial = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      this.#stderr.push(...lines.filter((line) => line.trim().length > 0));
      if (this.#stderr.length > STDERR_LINES_KEPT) this.#stderr.splice(0, this.#stderr.length - STDERR_LINES_KEPT);
    });
  }

  /** Starts the agent. A command that cannot be started is a `BatonError` naming it. */
  static async start(spec: AgentCommand): Promise<AgentProcess> {
    const tag = agentTreeTag(spec.runId);
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env, [tag.name]: tag.value },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const spawned = await Promise.race([
      once(child, "spawn").then(() => undefined),
      once(child, "error").then(([error]) => error as NodeJS.ErrnoException),
    ]);
    if (spawned !== undefined) {
      throw new BatonError("agent_not_started", `could not start agent command ${spec.command}: ${spawned.message}`, {
        hint: "check that the agent is installed and on PATH",
        cause: spawned,
      });
    }
    return new AgentProcess(child, child.pid === undefined ? undefined : ProcessTree.track(child.pid, { tag }));
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  get exit(): AgentExit | undefined {
    return this.#exit;
  }

  /** The agent's standard output as a web stream of bytes. */
  stdout(): ReadableStream<Uint8Array> {
    return Readable.toWeb(this.#child.stdout as Readable) as ReadableStream<Uint8Array>;
  }

  /** The agent's standard input as a web stream of bytes; writes after exit are dropped. */
  stdin(): WritableStream<Uint8Array> {
    const stdin = this.#child.stdin;
    return new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise<void>((resolve) => {
          if (!stdin || stdin.destroyed || !stdin.writable) return resolve();
          stdin.write(chunk, () => resolve());
        }),
      close: () => {
        stdin?.end();
      },
    });
  }

  /** Why the process ended (`agent_exited`), with its last standard-error lines; `when` says during what. */
  exitError(when: string): { code: string; message: string } {
    const exit = this.#exit;
    const how = exit?.signal ? `was killed by ${exit.signal}` : `exited with code ${exit?.code ?? "unknown"}`;
    const stderr = this.stderrTail().slice(-3).join(" | ");
    return { code: "agent_exited", message: `the agent ${how} ${when}${stderr ? `; its last words: ${stderr}` : ""}` };
  }

  /** The last lines the agent wrote to standard error. */
  stderrTail(): string[] {
    return [...this.#stderr];
  }

  /** Signals the whole process group; a group that is already gone is not an error. */
  signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }

  /**
   * Ends the agent: closes its input, waits `graceMs` for it to exit, then SIGTERM to its
   * group, then SIGKILL. Afterwards no process of the group or of the agent's tree is left
   * (one agent was seen to ignore SIGTERM after an error).
   */
  async stop(graceMs: number): Promise<AgentExit> {
    this.#child.stdin?.end();
    if (!(await this.#exitedWithin(graceMs))) {
      this.signalGroup("SIGTERM");
      if (!(await this.#exitedWithin(graceMs))) this.signalGroup("SIGKILL");
    }
    const exit = await this.exited;
    // The leader is gone; anything it left in its group or its tree goes too.
    this.signalGroup("SIGKILL");
    this.#endTree();
    return exit;
  }

  /**
   * Kills what is left of the agent's process tree, and stops tracking it. Once: the agent has
   * exited by then (or Baton is exiting), so nothing of the tree is started afterwards.
   */
  #endTree(): void {
    if (this.#tree === undefined || this.#treeEnded) return;
    this.#treeEnded = true;
    this.#tree.killAll();
    if (process.listeners("exit").includes(this.#onBatonExit)) {
      process.off("exit", this.#onBatonExit);
      process.setMaxListeners(Math.max(0, process.getMaxListeners() - 1));
    }
  }

  async #exitedWithin(ms: number): Promise<boolean> {
    if (this.#exit) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.exited.then(() => true), timeout]);
    clearTimeout(timer);
    return result;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop(1000);
  }
}
