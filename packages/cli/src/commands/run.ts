import { resolve } from "node:path";
import {
  BatonError,
  buildAgentEnv,
  describeRepo,
  executeRun,
  loadConfig,
  openStore,
  planWorkspace,
  Redactor,
  secretsFromEnv,
  type RunResult,
} from "@baton/engine";
import type { Envelope } from "@baton/protocol";
import { fakeAgentCommand, loadScript } from "@baton/testkit/launch";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { ProgressRenderer } from "../render/progress.ts";
import { VERSION } from "../version.ts";

export type RunOptions = {
  agent: string;
  script?: string;
  json?: boolean;
  hints?: boolean;
  /** Workspace: start the run's branch from this ref instead of HEAD. */
  base?: string;
  /** Workspace: copy the repository's uncommitted changes into the run's worktree. */
  includeDirty?: boolean;
  /** Workspace: work in the repository itself, with no worktree and no commit. */
  inPlace?: boolean;
};

/** The agents this version can start, with what each needs. */
const KNOWN_AGENTS = ["fake"];

export async function runCommand(ctx: CliContext, taskArg: string | undefined, options: RunOptions): Promise<number> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  const agent = await resolveAgent(ctx, options);
  const task = taskArg ?? agent.defaultTask;
  if (task.trim().length === 0) throw new BatonError("usage", "the task is empty", { hint: "pass the task as the first argument" });
  const repo = await describeRepo(project.root);
  // Checked before the run exists: a bad base or a dirty tree changes nothing.
  const workspace = await planWorkspace({
    root: project.root,
    batonDir: project.batonDir,
    ...(options.base === undefined ? {} : { base: options.base }),
    includeDirty: options.includeDirty === true,
    inPlace: options.inPlace === true || (config.workspace.mode === "in_place" && options.base === undefined && options.includeDirty !== true),
  });

  await using store = await openStore(project.batonDir);
  const writer = await store.createRun();
  const view = options.json ? jsonView(ctx.stdout) : progressView(ctx.stdout);
  const unsubscribe = writer.subscribe(view);
  let result: RunResult;
  try {
    result = await executeRun(writer, {
      task,
      agentName: options.agent,
      command: { command: agent.command, args: agent.args, env: buildAgentEnv(ctx.env) },
      repo,
      workspace,
      rules: config.permissions.rules,
      builtinRules: config.permissions.builtin_rules,
      maxOutputChars: config.trace.max_output_chars,
      cancelGraceMs: config.session.cancel_grace_ms,
      redactor: new Redactor(secretsFromEnv(ctx.env)),
      signal: ctx.signal,
      now: () => new Date(),
      version: VERSION,
    });
  } finally {
    unsubscribe();
  }
  if (!options.json && options.hints !== false) {
    ctx.stdout.write(`\nNext: baton show ${result.number} · baton events ${result.number} · ${store.eventsPath(result.runId)}\n`);
  }
  return result.status === "succeeded" ? EXIT.succeeded : result.status === "cancelled" ? EXIT.cancelled : EXIT.failed;
}

async function resolveAgent(ctx: CliContext, options: RunOptions) {
  if (!KNOWN_AGENTS.includes(options.agent)) {
    throw new BatonError("unknown_agent", `unknown agent "${options.agent}"`, { hint: `known agents: ${KNOWN_AGENTS.join(", ")}` });
  }
  if (options.script === undefined) {
    throw new BatonError("usage", "the fake agent needs a script", { hint: "pass --script FILE (a JSON array of steps)" });
  }
  const path = resolve(ctx.cwd, options.script);
  try {
    await loadScript(path);
  } catch (error) {
    throw new BatonError("bad_script", (error as Error).message, { hint: "fix the script; `baton run --help` lists the steps" });
  }
  return { ...fakeAgentCommand(path), defaultTask: `Play the scripted steps in ${options.script}` };
}

/** `--json`: every durable envelope as one NDJSON line, and nothing else on stdout. */
function jsonView(out: NodeJS.WriteStream) {
  return (event: Envelope) => {
    if (event.seq !== undefined) out.write(`${JSON.stringify(event)}\n`);
  };
}

function progressView(out: NodeJS.WriteStream) {
  const renderer = new ProgressRenderer(out);
  return (event: Envelope) => renderer.render(event);
}
