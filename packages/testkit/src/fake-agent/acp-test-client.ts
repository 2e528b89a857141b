// Test helper: start the fake agent as a real child process and drive it with the SDK's
// client side, tapping the raw NDJSON the agent writes before the SDK parses (and possibly
// drops) any of it.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { fakeAgentBinPath } from "./command.ts";
import { tapLines, type RawMessage } from "../testing/acp-tap.ts";
export type { RawMessage } from "../testing/acp-tap.ts";


export type FakeAgentProcess = {
  /** Every line the agent wrote to stdout so far, parsed, in order. */
  readonly messages: RawMessage[];
  /** The `update` objects of the `session/update` notifications, in wire order. */
  updates(): Array<Record<string, unknown>>;
  readonly permissionRequests: acp.RequestPermissionRequest[];
  stderr(): string;
  /** Ends the agent's stdin, as a client going away does. */
  closeStdin(): void;
  readonly exited: Promise<number | null>;
};

export type DriveOptions = {
  /** How the client answers every permission request. */
  permission?: "allow_once" | "reject_once";
};

/** Spawns `bin.ts` with `args`, runs `op` with a connected client, then closes stdin. */
export async function driveFakeAgent<T>(
  args: string[],
  op: (ctx: acp.ClientContext, agent: FakeAgentProcess) => Promise<T>,
  options: DriveOptions = {},
): Promise<T> {
  const child = spawn(process.execPath, [fakeAgentBinPath, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  // The agent may be gone already (a `crash` step): a write or end on its stdin then fails
  // with EPIPE, which is expected here, not a test failure.
  child.stdin.on("error", () => {});
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const messages: RawMessage[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const agent: FakeAgentProcess = {
    messages,
    updates: () =>
      messages
        .filter((message) => message.method === "session/update")
        .map((message) => message.params?.update as Record<string, unknown>),
    permissionRequests,
    stderr: () => stderr,
    closeStdin: () => child.stdin.end(),
    exited,
  };
  const stdout = (Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>).pipeThrough(tapLines(messages));
  const client = acp
    .client({ name: "fake-agent-test" })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return { outcome: { outcome: "selected", optionId: options.permission ?? "allow_once" } };
    });
  try {
    return await client.connectWith(acp.ndJsonStream(Writable.toWeb(child.stdin), stdout), (ctx) => op(ctx, agent));
  } finally {
    child.stdin.end();
    await exited;
  }
}

/** Initializes and opens a session in `cwd`, as every test needs. */
export async function openSession(ctx: acp.ClientContext, cwd: string): Promise<string> {
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  return sessionId;
}

export function prompt(ctx: acp.ClientContext, sessionId: string, text = "go"): Promise<acp.PromptResponse> {
  return ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
}
