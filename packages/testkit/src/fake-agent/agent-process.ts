import * as acp from "@agentclientprotocol/sdk/unstable";
import { readFakeAgentArgs, type FakeAgentArgs } from "./bin-args.ts";
import { createFakeAgent, FAKE_AGENT_VERSION } from "./fake-agent.ts";
import { guardAgainstEpipe, readableFromNode, writableFromNode } from "./stdio-stream.ts";

/** Exit code for a bad command line or script, as usage errors conventionally get. */
export const EXIT_BAD_SCRIPT = 2;
/** 128 + the signal number, what a shell reports for a process ended by that signal. */
const EXIT_ON_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * The fake agent's process: validate the script (a bad one exits 2 before any ACP is
 * spoken), then serve ACP on stdin/stdout until stdin closes, and exit 0. Stdout carries only
 * ACP NDJSON; diagnostics go to stderr.
 */
export async function runFakeAgentProcess(args: string[]): Promise<never> {
  const exit = (code: number): never => process.exit(code);
  let parsed: FakeAgentArgs;
  try {
    parsed = await readFakeAgentArgs(args, process.env);
  } catch (error) {
    process.stderr.write(`${oneLine((error as Error).message)}\n`);
    return exit(EXIT_BAD_SCRIPT);
  }
  if (parsed.kind === "version") {
    process.stdout.write(`baton-fake-agent ${FAKE_AGENT_VERSION}\n`);
    return exit(0);
  }
  const { script, model, fixedModel } = parsed;

  guardAgainstEpipe(
    process.stdout,
    () => exit(0),
    (error) => {
      process.stderr.write(`baton-fake-agent: stdout: ${oneLine(error.message)}\n`);
      exit(1);
    },
  );
  const connection = createFakeAgent({ script, exit, writeStderr, model, ...(fixedModel === undefined ? {} : { fixedModel }) }).connect(
    acp.ndJsonStream(writableFromNode(process.stdout), readableFromNode(process.stdin)),
  );
  // Commands run in their own process groups, so a signal to ours would not reach them:
  // closing the connection aborts the turn, which kills them, before the process goes.
  for (const [name, code] of Object.entries(EXIT_ON_SIGNAL)) {
    process.once(name, () => {
      connection.close(new Error(name));
      exit(code);
    });
  }
  await connection.closed;
  return exit(0);
}

/** Resolves once the text is handed to stderr, so that a `crash` right after cannot lose it. */
function writeStderr(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stderr.write(text, (error) => (error ? reject(error) : resolve())));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
