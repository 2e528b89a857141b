import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { batonEnv } from "./baton-env.ts";
import { waitFor } from "./wait-for.ts";

/**
 * The checkout's `baton` launcher, started as users start it. Found by the workspace's layout
 * (the same from sources and from dist): the test kit cannot depend on the CLI, which depends on it.
 */
export const BATON_BIN = fileURLToPath(new URL("../../../../cli/bin/baton.js", import.meta.url));

/** What `baton serve` prints once it listens: its URL with the token. */
const SERVE_URL = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/;

/** A `baton` child process, its output so far (stdout and stderr), and its end. */
export class Baton {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output = "";

  constructor(cwd: string, args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BATON_BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout?.setEncoding("utf8").on("data", (text: string) => (this.output += text));
    this.child.stderr?.setEncoding("utf8").on("data", (text: string) => (this.output += text));
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  /** SIGKILLs the process if it still runs (runs a server started go on: they are processes of their own), and waits for it to be gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exited;
  }
}

/**
 * Starts `baton serve` in `repo` on `port` with `token` and waits for the URL it prints
 * (`http://…/?token=T`); throws with its output if it exits first. Started again on the same
 * port and token, a server keeps its URL.
 *
 * @example
 * const { server, url } = await startServe(repo, await freePort(), "web-token-0123456789");
 * try { await page.goto(url); } finally { await server.kill(); }
 */
export async function startServe(repo: string, port: number, token: string): Promise<{ server: Baton; url: string }> {
  const server = new Baton(repo, ["serve", "--port", String(port)], batonEnv({ BATON_SERVE_TOKEN: token }));
  let url: string | undefined;
  await waitFor("baton serve to print its URL", () => {
    url = SERVE_URL.exec(server.output)?.[0];
    if (url === undefined && server.child.exitCode !== null) throw new Error(`baton serve exited: ${server.output}`);
    return url !== undefined;
  });
  return { server, url: url! };
}

/** Starts `baton run TASK --agent fake --script FILE` in the background. */
export function startRun(repo: string, task: string, script: string): Baton {
  return new Baton(repo, ["run", task, "--agent", "fake", "--script", script], batonEnv());
}
