// Test support: start a real agent as its own process group and drive it with the ACP SDK's
// client side, tapping the raw lines it writes (the SDK drops updates it cannot validate).
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentLaunch } from "./agent-profiles.ts";
import { tapLines, type RawMessage } from "@baton/testkit/acp-tap";
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
  const client = acp
    .client({ name: "baton-real-agent-test" })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      agent.permissionRequests.push(params);
      const allow = params.options.find((option) => option.kind === "allow_once") ?? params.options.find((o) => o.kind.startsWith("allow"));
      return allow === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: allow.optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      try {
        return { content: await readFile(params.path, "utf8") };
      } catch {
        throw acp.RequestError.resourceNotFound(params.path);
      }
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      await mkdir(dirname(params.path), { recursive: true });
      await writeFile(params.path, params.content);
      agent.clientWrites.push(params.path);
      return {};
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
