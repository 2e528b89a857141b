import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { BatonConfig } from "@baton/engine/config";
import { peopleSettings } from "../people-settings.ts";
import { findAgent, prepareAgentLaunch, type AgentRegistry } from "@baton/engine/agents";
import { BatonError } from "@baton/engine/errors";
import { definitionRouter, executeWorkflow, loadedWorkflow, proxySettingsFor, type AgentRunSettings, type AgentToRun, type WorkflowRunRequest, type WorkflowRunResult } from "@baton/engine/workflow";
import { isWorkflowError, loadValidWorkflow, type PipelineOptions, type WorkflowDefinition } from "@baton/workflow";
import { validateScript } from "@baton/testkit/launch";
import { definedFields } from "@baton/protocol/core";
import { commandEnvironment } from "../command-environment.ts";
import type { CliContext } from "../context.ts";
import { exitCodeOf } from "./exit-code.ts";
import type { Project } from "../project.ts";
import { runDelivery, type DeliveryFlags } from "../run-delivery.ts";

/** A run paused at a human gate: not 0, 1, 2, 3, 124 or 130, so a script can tell it apart. */
export const PAUSED_EXIT = 4;

/** Reads a workflow by name or path; its errors become Baton's one-line usage errors. */
export async function loadRunWorkflow(ref: string, ctx: CliContext, project: Project, pipeline?: { config: BatonConfig; pr: boolean; validate?: readonly string[] | undefined }): Promise<WorkflowDefinition> {
  const options = pipeline === undefined ? undefined : pipelineOptions(pipeline.config, pipeline.pr, pipeline.validate ?? []);
  try {
    return (await loadValidWorkflow(ref, definedFields({ cwd: ctx.cwd, projectRoot: project.root, pipeline: options }))).definition;
  } catch (error) {
    if (isWorkflowError(error)) throw new BatonError(error.code, error.message, definedFields({ hint: error.hint }));
    throw error;
  }
}

/** The built-in pipeline's shape, from `[pipeline]`, `[validation]`, `--validate` and `--pr` (or `[delivery] mode = "pull_request"`). */
export function pipelineOptions(config: BatonConfig, pr: boolean, validate: readonly string[]): PipelineOptions {
  return {
    approvals: config.pipeline.approvals,
    maxParallel: config.pipeline.max_parallel,
    maxFixRounds: config.validation.max_fix_rounds,
    validates: config.validation.commands.length + validate.length > 0,
    delivery: pr || config.delivery.mode === "pull_request" ? "pull_request" : "merge",
  };
}

/**
 * The fake agent's script for a workflow: one script for every stage, or
 * `{"stages": {"<stage id>": <script>, …}}` with one per stage (a stage without one ends its
 * turn at once); `"<stage id>/<branch>"` (`build/item-0`) is that stage in one fan-out branch. Every stage's script is checked before the run exists.
 */
export async function stageScripts(path: string): Promise<(stage: string, branch?: string) => string> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new BatonError("bad_script", `${path}: ${(error as Error).message}`, { hint: "the script must be a JSON file" });
  }
  const stages = typeof value === "object" && value !== null && !Array.isArray(value) && "stages" in value ? (value as { stages: unknown }).stages : undefined;
  if (stages === undefined) {
    const script = JSON.stringify(check(value, path));
    return () => script;
  }
  if (typeof stages !== "object" || stages === null || Array.isArray(stages)) throw new BatonError("bad_script", `${path}: "stages" must map stage ids to scripts`, { hint: 'write {"stages": {"plan": [{"say": "…"}]}}' });
  const byStage = new Map(Object.entries(stages).map(([stage, script]) => [stage, JSON.stringify(check(script, `${path} stage "${stage}"`))]));
  return (stage, branch) => (branch === undefined ? undefined : byStage.get(`${stage}/${branch.replace(/@\d+$/, "")}`)) ?? byStage.get(stage) ?? "[]";
}

function check(value: unknown, source: string) {
  try {
    return validateScript(value, source);
  } catch (error) {
    throw new BatonError("bad_script", (error as Error).message, { hint: "fix the script; `baton run --help` lists the steps" });
  }
}

/** Starts each stage's agent: its own `agent=`/`model=` (or the stylesheet's), else the run's. */
export function stageAgentResolver(
  ctx: CliContext,
  project: Project,
  registry: AgentRegistry,
  runAgent: { name: string; model?: string | undefined; script?: ((stage: string, branch?: string) => string) | undefined; mcpServers?: BatonConfig["mcp"]["servers"] },
) {
  return async (stage: string, agent: string | undefined, model: string | undefined, branch?: string): Promise<AgentToRun> => {
    const name = agent ?? runAgent.name;
    const entry = findAgent(registry, name);
    const scriptArgs = entry.script_arg !== undefined && runAgent.script !== undefined ? ["--script-json", runAgent.script(stage, branch)] : [];
    if (entry.script_arg !== undefined && runAgent.script === undefined) {
      throw new BatonError("usage", `stage "${stage}" runs the ${name} agent, which needs a script`, { hint: "pass --script FILE" });
    }
    const launch = await prepareAgentLaunch(name, entry, definedFields({ env: ctx.env, cwd: project.root, extraArgs: scriptArgs, model: model ?? runAgent.model, mcpServers: runAgent.mcpServers }));
    return definedFields({
      agentName: name,
      command: { command: launch.command, args: launch.args, env: launch.env },
      setup: launch.session,
      proxyWiring: launch.proxy,
      agent: definedFields({
        notices: entry.notices,
        provider_error_prefixes: entry.provider_error_prefixes,
        rate_limit_code: entry.rate_limit_code,
        stallTimeoutMs: entry.stall_timeout === undefined ? undefined : entry.stall_timeout * 1_000,
        tokenReports: entry.token_reports,
      }),
    });
  };
}

/** What a workflow run's settings are, from the config and the command line. */
export function agentRunSettings(config: BatonConfig, extra: Pick<AgentRunSettings, "limits" | "redactor" | "now" | "version" | "stepSummaryFile" | "sandbox">, unattended: boolean): AgentRunSettings {
  return {
    ...extra,
    rules: config.permissions.rules,
    builtinRules: config.permissions.builtin_rules,
    peopleSettings: peopleSettings(config, unattended),
    maxOutputChars: config.trace.max_output_chars,
    cancelGraceMs: config.session.cancel_grace_ms,
    retry: { rateLimitedMs: config.retry.rate_limited, overloadedMs: config.retry.overloaded, jitter: config.retry.jitter, maxRetryAfterMs: config.retry.max_retry_after },
    requireOutput: "none",
    isolation: config.isolation.agent,
  };
}

/** The parts of a workflow run request that a new run and a resumed one share. */
export async function workflowRequestParts(
  definition: WorkflowDefinition,
  task: string,
  project: Project,
  env: Record<string, string | undefined>,
  delivery?: { config: BatonConfig; flags?: DeliveryFlags },
): Promise<Pick<WorkflowRunRequest, "router" | "workflow" | "commandEnv" | "delivery">> {
  const commandEnv = commandEnvironment(env);
  return {
    router: definitionRouter(definition, { task, baseDir: project.root }),
    workflow: await loadedWorkflow(definition, project.root),
    commandEnv,
    // In a workflow only a merge (or pull_request) stage delivers: `[delivery] mode` is for single runs.
    delivery: delivery === undefined ? undefined : runDelivery(delivery.config, { ...delivery.flags, merge: false, pr: false }, { inPlace: false, commandEnv, env, workflow: true }),
  };
}

/** A workflow run's exit code: a plain run's ({@link exitCodeOf}), and 4 when it paused at a gate. */
export function workflowExitCode(result: WorkflowRunResult): number {
  return result.status === "paused" ? PAUSED_EXIT : exitCodeOf({ ...result, status: result.status });
}

/** What to do next, after the closing summary: answer a waiting gate, or look at the run. */
export function nextSteps(result: { number: number; status: string; gate?: string }): string {
  if (result.status === "paused") return `\nPaused at gate ${result.gate ?? ""}: baton approve ${result.number} · baton reject ${result.number} · baton answer ${result.number} CHOICE\n`;
  if (result.status === "failed") return `\nNext: baton show ${result.number} · baton resume ${result.number} (continues after its last checkpoint) · baton fork ${result.number} --at STAGE (a new run from a checkpoint)\n`;
  return `\nNext: baton show ${result.number} · baton events ${result.number}\n`;
}

export function resolveScriptPath(ctx: CliContext, script: string): string {
  return resolve(ctx.cwd, script);
}

export type { WorkflowRunRequest };
export { executeWorkflow };

/** The process's inference proxy for a workflow run whose own agent is `name` (see `proxySettingsFor`). */
export function workflowProxy(ctx: CliContext, config: BatonConfig, registry: AgentRegistry, name: string) {
  return proxySettingsFor(config.proxy, ctx.env, { name, proxy: findAgent(registry, name).proxy });
}
