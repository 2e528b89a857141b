// Test support: start a real agent as its own process group and drive it with the ACP SDK's
// client side, tapping the raw lines it writes (the SDK drops updates it cannot validate).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentLaunch } from "./agent-profiles.ts";
import { tapLines, type RawMessage } from "@baton/testkit/acp-tap";
import { allowingClient } from "@baton/testkit/allowing-client";
export type { RawMessage } from "@baton/testkit/acp-tap";


export type RealAgent = {
  readonly messages: RawMessage[];
  readonly permissionRequests: acp.RequestPermissionRequest[];
  /** Paths the agent wrote through the client's `fs/write_text_file`. */
  readonly clientWrites: string[];
  stderr(): string;
};

/** How long an agent gets to exit after its stdin closes and SIGTERM, before SIGKILL. */
const EXIT_GRACE_MS = 3000;

/**
 * Starts `launch` with exactly `env`, connects a client, runs `op`, then stops the agent's whole
 * process group. Permission requests are answered with the `allow_once` option.
 */
export async function driveRealAgent<T>(
  launch: AgentLaunch,
  env: Record<string, string>,
  cwd: string,
  op: (ctx: acp.ClientContext, agent: RealAgent) => Promise<T>,
): Promise<T> {
  // Own process group: agents spawn helpers (claude its native binary, codex its sandbox), and
  // one of them ignoring SIGTERM must not outlive the test.
  const child = spawn(launch.command, launch.args, { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {}); // EPIPE once the agent is gone: expected at shutdown
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  await spawned;
  const agent: RealAgent = { messages: [], permissionRequests: [], clientWrites: [], stderr: () => stderr };
  const stdout = (Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>).pipeThrough(tapLines(agent.messages));
  const client = allowingClient("baton-real-agent-test", {
    onPermission: (params) => agent.permissionRequests.push(params),
    onWrite: (path) => agent.clientWrites.push(path),
  });
  try {
    return await client.connectWith(acp.ndJsonStream(Writable.toWeb(child.stdin), stdout), (ctx) => op(ctx, agent));
  } finally {
    child.stdin.end();
    signalGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
    signalGroup(child.pid, "SIGKILL"); // helpers left in the group
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}
