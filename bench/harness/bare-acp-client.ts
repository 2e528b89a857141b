// The baseline of harness-overhead.bench.ts: the least a client can do to drive an ACP agent
// through one prompt, with the ACP SDK (`acp.client()`) and nothing of Baton. It spawns the
// agent, initializes, opens a session in `cwd`, sends one prompt, answers every permission
// request with allow_once, discards every update, then closes the agent's stdin and waits for
// it to exit, the way Baton ends a session. It prints how the prompt went and when its session was
// ready and its turn ended (epoch milliseconds), to set beside the events of Baton's run.
//   node bench/harness/bare-acp-client.ts <cwd> <command> [args…]
// The parent times this process from spawn to exit, as it times `baton run`.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [cwd, command, ...args] = process.argv.slice(2);
if (cwd === undefined || command === undefined) throw new Error("usage: bare-acp-client.ts <cwd> <command> [args…]");

const agent = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "inherit"] });
const exited = once(agent, "exit");
const app = acp
  .client({ name: "bare-bench-client" })
  .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
  .onNotification(acp.methods.client.session.update, () => {});
const connection = app.connect(
  acp.ndJsonStream(Writable.toWeb(agent.stdin) as WritableStream<Uint8Array>, Readable.toWeb(agent.stdout) as ReadableStream<Uint8Array>),
);
const ctx = connection.agent;
await ctx.request(acp.methods.agent.initialize, {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
});
const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
const sessionAt = Date.now();
const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "play the script" }] });
const turnEndAt = Date.now();
connection.close();
agent.stdin.end();
const [code] = (await exited) as [number | null];
process.stdout.write(`${JSON.stringify({ stopReason, exitCode: code, sessionAt, turnEndAt })}\n`);
