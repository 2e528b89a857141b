import { githubToken, TOKEN_VARIABLES } from "@baton/engine/delivery";
import { PIPELINE_WORKFLOW } from "@baton/workflow";
import { describeRepo, readRepoStatus, executeWorkflow, findAgent, loadConfig, planWorkspace, BatonError, Redactor, secretsFromEnv, mcpSecrets } from "@baton/engine";
import { definedFields } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import type { CliContext } from "../context.ts";
import { locateProject, type Project } from "../project.ts";
import { checkLimits, resolveLimits } from "../run-limits.ts";
import { checkAskRules } from "../people-settings.ts";
import { VERSION } from "../version.ts";
import type { RunOptions, RunPlacement } from "./run.ts";
import { eventView } from "./run-view.ts";
import { saveLaunch } from "./run-launch.ts";
import { agentRunSettings, loadRunWorkflow, nextSteps, resolveScriptPath, stageAgentResolver, stageScripts, workflowExitCode, workflowRequestParts, workflowProxy } from "./workflow-run.ts";
import { openProjectStore } from "../project-store.ts";
import { prepareSandbox } from "@baton/engine/sandbox";

export type WorkflowRunOptions = RunOptions & { workflow: string; autoApprove?: boolean };

/**
 * `baton run TASK --workflow NAME|FILE`: a run that walks a workflow's stages. Everything is
 * checked before the run exists (the workflow, every stage's script, the agent, the limits,
 * the workspace); the run then goes on to its end or pauses at a gate (exit 4).
 */
export async function runWorkflowCommand(ctx: CliContext, taskArg: string | undefined, options: WorkflowRunOptions, located?: Promise<Project>, placement?: RunPlacement): Promise<number> {
  const project = await (located ?? locateProject(ctx.cwd));
  const config = await loadConfig(project.batonDir);
  const registry = agentRegistry(config);
  const definition = await loadRunWorkflow(options.workflow, ctx, project, { config, pr: options.pr === true, validate: options.validate });
  // The built-in pipeline (not a project's own pipeline.dot) delivers as --pr says.
  const pipeline = definition.name === PIPELINE_WORKFLOW && definition.file === undefined;
  if (options.pr === true && !pipeline) throw new BatonError("usage", "--pr is for single runs and the built-in pipeline: in a workflow a pull_request stage opens it", { hint: "add a stage with type=pull_request (behind a gate, if a person should approve), or drop --workflow" });
  if (pipeline && (options.pr === true || config.delivery.mode === "pull_request") && githubToken(ctx.env) === undefined) {
    throw new BatonError("usage", `the pipeline ends with a pull request on GitHub (${options.pr === true ? "--pr" : '[delivery] mode = "pull_request"'}), and neither ${TOKEN_VARIABLES.join(" nor ")} is set`, { hint: "export GITHUB_TOKEN (a token with pull requests: write), or drop --pr" });
  }
  const name = options.agent ?? (options.script === undefined ? config.default_agent : "fake");
  if (name === undefined) {
    throw new BatonError("usage", "no agent chosen", { hint: `pass --agent NAME (${[...registry.keys()].join(", ")}) or set default_agent in .baton/config.toml` });
  }
  const entry = findAgent(registry, name);
  const task = taskArg ?? definition.graph.goal ?? "";
  if (task.trim().length === 0) throw new BatonError("usage", "no task given", { hint: "pass the task as the first argument, or give the workflow a goal" });
  const limits = resolveLimits(options, config, ctx.env);
  const proxy = await workflowProxy(ctx, config, registry, name);
  checkLimits(limits, { name, entry }, ctx.interactive === true && options.yes !== true, proxy !== undefined);
  checkAskRules(config, ctx.interactive === true && options.yes !== true);
  const script = options.script === undefined ? undefined : await stageScripts(resolveScriptPath(ctx, options.script));
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name, model: options.model, script, mcpServers: config.mcp.servers });
  // Every stage's agent is started the same way: an unknown or missing one fails here, before the run.
  for (const node of definition.nodes.filter((n) => n.handler === "agent" || n.handler === "prompt")) await resolveAgent(node.id, node.agent, node.model);
  const runAgent = await resolveAgent("", undefined, undefined);
  // One `git status` serves both.
  const status = readRepoStatus(project.root);
  const repo = await describeRepo(project.root, status);
  const workspace = await planWorkspace(
    definedFields({
      status,
      root: project.root,
      batonDir: project.batonDir,
      base: options.base,
      includeDirty: options.includeDirty === true,
      inPlace: options.inPlace === true || (config.workspace.mode === "in_place" && options.worktree !== true && options.base === undefined && options.includeDirty !== true),
    }),
  );
  if (options.merge === true) throw new BatonError("usage", "--merge is for single runs: in a workflow a merge stage merges", { hint: 'add a stage with type=merge (behind a gate, if a person should approve), or drop --workflow' });
  const parts = await workflowRequestParts(definition, task, project, ctx.env, { config, flags: definedFields({ validate: options.validate, mergeStrategy: options.mergeStrategy, draft: options.draft }) });
  // A sandbox that cannot be made here is refused before the run goes on.
  const sandbox = await prepareSandbox(config.sandbox, { env: ctx.env, projectRoot: project.root, batonDir: project.batonDir });
  await using opened = placement === undefined ? await openProjectStore(ctx, project) : undefined;
  const writer = placement?.writer ?? (await (opened as NonNullable<typeof opened>).createRun());
  // What a later `baton resume` or `baton approve` needs to start the same agents again.
  await saveLaunch(writer.dir, { agent: name, model: options.model, script: options.script === undefined ? undefined : resolveScriptPath(ctx, options.script), pr: options.pr === true && pipeline, validate: options.validate });
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, options.json === true));
  try {
    const result = await executeWorkflow(writer, {
      ...definedFields({ proxy }),
      ...parts,
      task,
      agent: runAgent,
      resolveAgent,
      settings: agentRunSettings(config, { limits, redactor: new Redactor([...secretsFromEnv(ctx.env), ...mcpSecrets(config.mcp.servers)]), now: () => new Date(), version: VERSION, stepSummaryFile: ctx.env["GITHUB_STEP_SUMMARY"], sandbox }, options.yes === true),
      repo,
      autoApprove: options.autoApprove === true,
      signal: ctx.signal,
      start: { kind: "new", workspace },
    });
    if (options.json !== true && options.hints !== false) ctx.stdout.write(nextSteps(result));
    return workflowExitCode(result);
  } finally {
    unsubscribe();
  }
}
