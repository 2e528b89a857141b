import { describeRepo, executeWorkflow, findAgent, loadConfig, openStore, planWorkspace, BatonError, Redactor, secretsFromEnv } from "@baton/engine";
import { definedFields } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import type { CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { checkLimits, resolveLimits } from "../run-limits.ts";
import { VERSION } from "../version.ts";
import type { RunOptions } from "./run.ts";
import { eventView } from "./run-view.ts";
import { saveLaunch } from "./run-launch.ts";
import { agentRunSettings, loadRunWorkflow, nextSteps, resolveScriptPath, stageAgentResolver, stageScripts, workflowExitCode, workflowRequestParts } from "./workflow-run.ts";

export type WorkflowRunOptions = RunOptions & { workflow: string; autoApprove?: boolean };

/**
 * `baton run TASK --workflow NAME|FILE`: a run that walks a workflow's stages. Everything is
 * checked before the run exists (the workflow, every stage's script, the agent, the limits,
 * the workspace); the run then goes on to its end or pauses at a gate (exit 4).
 */
export async function runWorkflowCommand(ctx: CliContext, taskArg: string | undefined, options: WorkflowRunOptions): Promise<number> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  const registry = agentRegistry(config);
  const definition = await loadRunWorkflow(options.workflow, ctx, project);
  const name = options.agent ?? (options.script === undefined ? config.default_agent : "fake");
  if (name === undefined) {
    throw new BatonError("usage", "no agent chosen", { hint: `pass --agent NAME (${[...registry.keys()].join(", ")}) or set default_agent in .baton/config.toml` });
  }
  const entry = findAgent(registry, name);
  const task = taskArg ?? definition.graph.goal ?? "";
  if (task.trim().length === 0) throw new BatonError("usage", "no task given", { hint: "pass the task as the first argument, or give the workflow a goal" });
  const limits = resolveLimits(options, config, ctx.env);
  checkLimits(limits, { name, entry }, ctx.interactive === true && options.yes !== true);
  const script = options.script === undefined ? undefined : await stageScripts(resolveScriptPath(ctx, options.script));
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name, model: options.model, script });
  // Every stage's agent is started the same way: an unknown or missing one fails here, before the run.
  for (const node of definition.nodes.filter((n) => n.handler === "agent" || n.handler === "prompt")) await resolveAgent(node.id, node.agent, node.model);
  const runAgent = await resolveAgent("", undefined, undefined);
  const repo = await describeRepo(project.root);
  const workspace = await planWorkspace(
    definedFields({
      root: project.root,
      batonDir: project.batonDir,
      base: options.base,
      includeDirty: options.includeDirty === true,
      inPlace: options.inPlace === true || (config.workspace.mode === "in_place" && options.worktree !== true && options.base === undefined && options.includeDirty !== true),
    }),
  );
  const parts = await workflowRequestParts(definition, task, project, ctx.env);
  await using store = await openStore(project.batonDir);
  const writer = await store.createRun();
  // What a later `baton resume` or `baton approve` needs to start the same agents again.
  await saveLaunch(writer.dir, { agent: name, model: options.model, script: options.script === undefined ? undefined : resolveScriptPath(ctx, options.script) });
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, options.json === true));
  try {
    const result = await executeWorkflow(writer, {
      ...parts,
      task,
      agent: runAgent,
      resolveAgent,
      settings: agentRunSettings(config, { limits, redactor: new Redactor(secretsFromEnv(ctx.env)), now: () => new Date(), version: VERSION }),
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
