import { resolve } from "node:path";
import { findAgent, prepareAgentLaunch, type AgentRegistry } from "@baton/engine/agents";
import { loadConfig, type BatonConfig } from "@baton/engine/config";
import { BatonError } from "@baton/engine/errors";
import { prepareSandbox } from "@baton/engine/sandbox";
import { mcpSecrets, Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { describeRepo, executeRun, planWorkspace, proxySettingsFor, readRepoStatus, type RunResult } from "@baton/engine/run";
import type { Envelope } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { loadScript } from "@baton/testkit/launch";
import { agentRegistry } from "../agent-registry.ts";
import { type CliContext } from "../context.ts";
import { exitCodeOf } from "./exit-code.ts";
import { locateProject, type Project } from "../project.ts";
import { ProgressRenderer } from "../render/progress.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { checkLimits, resolveLimits, type LimitFlags } from "../run-limits.ts";
import { checkAskRules, peopleSettings } from "../people-settings.ts";
import { runDelivery, type DeliveryFlags } from "../run-delivery.ts";
import { commandEnvironment } from "../command-environment.ts";
import { VERSION } from "../version.ts";
import { openProjectStore } from "../project-store.ts";
import type { RunStore, RunStoreWriter } from "@baton/engine/store";

export type RunOptions = {
  agent?: string;
  script?: string;
  model?: string;
  json?: boolean;
  hints?: boolean;
  /** Workspace: start the run's branch from this ref instead of HEAD. */
  base?: string;
  /** Workspace: copy the repository's uncommitted changes into the run's worktree. */
  includeDirty?: boolean;
  /** Workspace: work in the repository itself, with no worktree and no commit. */
  inPlace?: boolean;
  /** Workspace: a worktree even when the config's `[workspace] mode` is `in_place`. */
  worktree?: boolean;
  /** Unattended: a timeout is required. */
  yes?: boolean;
  requireOutput?: "change" | "none";
  fallbackModel?: string;
} & LimitFlags &
  DeliveryFlags;

/**
 * Where a run is written when it was not made here: a worker runs a dispatched run (already
 * in the store, its writer taken by the worker) in a checkout of its own.
 */
export type RunPlacement = { store: RunStore; writer: RunStoreWriter };

export async function runCommand(ctx: CliContext, taskArg: string | undefined, options: RunOptions, located?: Promise<Project>, placement?: RunPlacement): Promise<number> {
  const project = await (located ?? locateProject(ctx.cwd));
  // The repository's state, from one `git status` that runs while the config and the agent are read.
  const status = readRepoStatus(project.root);
  status.catch(() => {});
  const config = await loadConfig(project.batonDir);
  const agent = await resolveAgent(ctx, options, project, config, agentRegistry(config));
  const task = taskArg ?? agent.defaultTask ?? "";
  if (task.trim().length === 0) throw new BatonError("usage", taskArg === undefined ? "no task given" : "the task is empty", { hint: "pass the task as the first argument" });
  const limits = resolveLimits(options, config, ctx.env);
  // The process's inference proxy, when the agent can be pointed at it: started (and its keys read) before the run exists.
  const proxy = await proxySettingsFor(config.proxy, ctx.env, { name: agent.name, proxy: agent.entry.proxy });
  checkLimits(limits, agent, ctx.interactive === true && options.yes !== true, proxy !== undefined);
  checkAskRules(config, ctx.interactive === true && options.yes !== true);
  // A sandbox that cannot be made here is refused before the run exists.
  const sandbox = await prepareSandbox(config.sandbox, { env: ctx.env, projectRoot: project.root, batonDir: project.batonDir });
  const requireOutput = options.requireOutput ?? config.run.require_output;
  const fallbackModel = options.fallbackModel ?? config.session.fallback_model;
  if (options.inPlace === true && options.worktree === true) {
    throw new BatonError("usage", "--in-place and --worktree contradict each other", { hint: "pass one of them" });
  }
  // Checked before the run exists: a bad base or a dirty tree changes nothing.
  const inPlace = options.inPlace === true || (config.workspace.mode === "in_place" && options.worktree !== true && options.base === undefined && options.includeDirty !== true);
  const delivery = runDelivery(config, options, { inPlace, commandEnv: commandEnvironment(ctx.env), env: ctx.env });
  // Both read the repository's state from that one `git status` (planning a given base adds its own lookups).
  const [repo, workspace] = await Promise.all([
    describeRepo(project.root, status),
    planWorkspace({
      status,
      root: project.root,
      batonDir: project.batonDir,
      ...definedFields({ base: options.base }),
      includeDirty: options.includeDirty === true,
      inPlace,
      gitHooks: config.git.hooks,
    }),
  ]);

  await using opened = placement === undefined ? await openProjectStore(ctx, project) : undefined;
  const store = opened ?? (placement as RunPlacement).store;
  const writer = placement?.writer ?? (await store.createRun());
  const view = options.json ? jsonView(ctx.stdout) : progressView(ctx.stdout);
  const unsubscribe = writer.subscribe(view);
  // The run goes on to its proper end without its reader (`| head`): its events are in its log.
  const onStdoutClosed = () => ctx.stderr.write(`baton: stdout was closed; run ${writer.number} goes on without output (baton events ${writer.number} shows it)\n`);
  if (ctx.stdoutClosed.aborted) onStdoutClosed();
  else ctx.stdoutClosed.addEventListener("abort", onStdoutClosed, { once: true });
  let result: RunResult;
  try {
    result = await executeRun(writer, {
      task,
      agentName: agent.name,
      command: { command: agent.launch.command, args: agent.launch.args, env: agent.launch.env },
      setup: agent.launch.session,
      ...definedFields({ proxy, proxyWiring: proxy === undefined ? undefined : agent.launch.proxy }),
      repo,
      workspace,
      rules: config.permissions.rules,
      builtinRules: config.permissions.builtin_rules,
      peopleSettings: peopleSettings(config, options.yes === true),
      isolation: config.isolation.agent,
      sandbox,
      maxOutputChars: config.trace.max_output_chars,
      cancelGraceMs: config.session.cancel_grace_ms,
      limits,
      retry: {
        rateLimitedMs: config.retry.rate_limited,
        overloadedMs: config.retry.overloaded,
        jitter: config.retry.jitter,
        maxRetryAfterMs: config.retry.max_retry_after,
      },
      agent: {
        notices: agent.entry.notices,
        tokenReports: agent.entry.token_reports,
        provider_error_prefixes: agent.entry.provider_error_prefixes,
        ...definedFields({ rate_limit_code: agent.entry.rate_limit_code, stallTimeoutMs: agent.entry.stall_timeout === undefined ? undefined : agent.entry.stall_timeout * 1_000 }),
      },
      ...definedFields({ fallbackModel }),
      requireOutput,
      delivery,
      redactor: new Redactor([...secretsFromEnv(ctx.env), ...mcpSecrets(config.mcp.servers)]),
      signal: ctx.signal,
      now: () => new Date(),
      version: VERSION,
      stepSummaryFile: ctx.env["GITHUB_STEP_SUMMARY"],
    });
  } finally {
    unsubscribe();
    ctx.stdoutClosed.removeEventListener("abort", onStdoutClosed);
  }
  if (!options.json && options.hints !== false) {
    ctx.stdout.write(`\nNext: baton show ${result.number} · baton events ${result.number} · ${visibleText(store.eventsPath(result.runId))}\n`);
  }
  return exitCodeOf(result);
}

export { exitCodeOf } from "./exit-code.ts";

/**
 * The agent to run and how to start it, all checked before a run exists: `--agent`, else the
 * fake agent when `--script` is given, else the config's `default_agent`.
 */
async function resolveAgent(ctx: CliContext, options: RunOptions, project: Project, config: BatonConfig, registry: AgentRegistry) {
  const name = options.agent ?? (options.script === undefined ? config.default_agent : "fake");
  if (name === undefined) {
    throw new BatonError("usage", "no agent chosen", {
      hint: `pass --agent NAME (${[...registry.keys()].join(", ")}) or set default_agent in .baton/config.toml`,
    });
  }
  const entry = findAgent(registry, name);
  let extraArgs: string[] = [];
  let defaultTask: string | undefined;
  if (entry.script_arg !== undefined) {
    if (options.script === undefined) {
      throw new BatonError("usage", `the ${name} agent needs a script`, { hint: "pass --script FILE (a JSON array of steps)" });
    }
    const path = resolve(ctx.cwd, options.script);
    try {
      await loadScript(path);
    } catch (error) {
      throw new BatonError("bad_script", (error as Error).message, { hint: "fix the script; `baton run --help` lists the steps" });
    }
    extraArgs = [entry.script_arg, path];
    defaultTask = `Play the scripted steps in ${options.script}`;
  } else if (options.script !== undefined) {
    throw new BatonError("usage", `--script is for the scripted fake agent, not ${name}`, { hint: "drop --script, or run with --agent fake" });
  }
  const launch = await prepareAgentLaunch(name, entry, {
    env: ctx.env,
    cwd: project.root,
    extraArgs,
    mcpServers: config.mcp.servers,
    ...definedFields({ model: options.model }),
  });
  return { name, entry, launch, defaultTask };
}

/**
 * `--json`: every durable envelope as one NDJSON line, and nothing else on stdout. The events
 * of a committed batch arrive together: their lines go out in one write, in a microtask, so
 * before anything else can happen (the run's end, an exit).
 */
function jsonView(out: NodeJS.WriteStream) {
  let lines = "";
  const flush = () => {
    const text = lines;
    lines = "";
    out.write(text);
  };
  return (event: Envelope) => {
    if (event.seq === undefined) return;
    if (lines === "") queueMicrotask(flush);
    lines += `${terminalJson(event)}\n`;
  };
}

function progressView(out: NodeJS.WriteStream) {
  const renderer = new ProgressRenderer(out);
  return (event: Envelope) => renderer.render(event);
}
