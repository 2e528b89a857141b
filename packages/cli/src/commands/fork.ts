import { stat } from "node:fs/promises";
import { join } from "node:path";
import { BatonError, describeRepo, executeWorkflow, findAgent, forkPoint, loadConfig, planForkWorkspace, Redactor, secretsFromEnv, mcpSecrets, type ForkAt } from "@baton/engine";
import { definedFields, foldRun, type Envelope } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import type { CliContext } from "../context.ts";
import { locateProject, type Project } from "../project.ts";
import { checkLimits, resolveLimits } from "../run-limits.ts";
import { checkAskRules } from "../people-settings.ts";
import { VERSION } from "../version.ts";
import { readLaunch, saveLaunch } from "./run-launch.ts";
import { eventView } from "./run-view.ts";
import { agentRunSettings, loadRunWorkflow, nextSteps, stageAgentResolver, stageScripts, workflowExitCode, workflowRequestParts, workflowProxy } from "./workflow-run.ts";
import { openProjectStore } from "../project-store.ts";
import { prepareSandbox } from "@baton/engine/sandbox";

export type ForkOptions = { at: string; json?: boolean; timeout?: number; autoApprove?: boolean; yes?: boolean };

/**
 * `baton fork RUN --at STAGE[@VISIT]`: a new run from a checkpoint of a workflow run (a failed
 * one too): a new number, a new branch made at the checkpoint's commit in a worktree of its
 * own, the checkpoint's context and visit counts, the same workflow (read again from the file
 * the run recorded) and the same agents, walking on from the stage after the checkpoint.
 * Everything is checked before the new run exists: bad input creates nothing.
 */
export async function forkCommand(ctx: CliContext, ref: string, options: ForkOptions): Promise<number> {
  const at = parseForkAt(options.at);
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  const events: Envelope[] = [];
  let originId: string;
  // A sandbox that cannot be made here is refused before the run goes on.
  const sandbox = await prepareSandbox(config.sandbox, { env: ctx.env, projectRoot: project.root, batonDir: project.batonDir });
  {
    await using store = await openProjectStore(ctx, project);
    originId = (await store.resolveRun(ref)).id;
    for await (const event of store.readRun(originId)) events.push(event);
  }
  const point = forkPoint(events, at);
  const state = foldRun(events);
  const label = `run ${state.number ?? ref}`;
  const originLaunch = await readLaunch(join(project.batonDir, "runs", originId));
  const definition = await loadRunWorkflow(await recordedWorkflow(project, events, label), ctx, project, { config, pr: originLaunch?.pr === true, validate: originLaunch?.validate });
  if (!definition.nodes.some((node) => node.id === point.start.node)) {
    throw new BatonError("workflow_changed", `${label}'s workflow no longer has stage "${point.start.node}", which runs after ${point.origin.stage}@${point.origin.visit}`, {
      hint: "put the stage back, or fork at another checkpoint",
    });
  }
  const launch = await readLaunch(join(project.batonDir, "runs", originId));
  if (launch === undefined) throw new BatonError("not_forkable", `${label} has no record of how its agents were started`, { hint: "start a new run" });
  const registry = agentRegistry(config);
  const limits = resolveLimits(definedFields({ timeout: options.timeout }), config, ctx.env);
  const proxy = await workflowProxy(ctx, config, registry, launch.agent);
  checkLimits(limits, { name: launch.agent, entry: findAgent(registry, launch.agent) }, ctx.interactive === true && options.yes !== true, proxy !== undefined);
  checkAskRules(config, ctx.interactive === true && options.yes !== true);
  const script = launch.script === undefined ? undefined : await stageScripts(launch.script);
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name: launch.agent, model: launch.model, script, mcpServers: config.mcp.servers });
  // Every stage's agent is started the same way: an unknown or missing one fails here, before the run.
  for (const node of definition.nodes.filter((n) => n.handler === "agent" || n.handler === "prompt")) await resolveAgent(node.id, node.agent, node.model);
  const workspace = await planForkWorkspace(definedFields({ root: project.root, batonDir: project.batonDir, sha: point.commit, gitHooks: config.git.hooks }));
  const task = state.task ?? "";
  const parts = await workflowRequestParts(definition, task, project, ctx.env, { config, flags: definedFields({ validate: originLaunch?.validate === undefined ? undefined : [...originLaunch.validate] }) });
  const repo = await describeRepo(project.root);
  await using store = await openProjectStore(ctx, project);
  const writer = await store.createRun();
  await saveLaunch(writer.dir, launch);
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, options.json === true));
  try {
    const result = await executeWorkflow(writer, {
      ...definedFields({ proxy }),
      ...parts,
      task,
      agent: await resolveAgent("", undefined, undefined),
      resolveAgent,
      settings: agentRunSettings(config, { limits, redactor: new Redactor([...secretsFromEnv(ctx.env), ...mcpSecrets(config.mcp.servers)]), now: () => new Date(), version: VERSION, stepSummaryFile: ctx.env["GITHUB_STEP_SUMMARY"], sandbox }, options.yes === true),
      repo,
      autoApprove: options.autoApprove === true,
      signal: ctx.signal,
      start: { kind: "fork", workspace, fork: point },
    });
    if (options.json !== true) ctx.stdout.write(nextSteps(result));
    return workflowExitCode(result);
  } finally {
    unsubscribe();
  }
}

/**
 * `--at plan` (the stage's last checkpoint) or `--at plan@2` (its second visit's).
 *
 * @example parseForkAt("review@2") // => { stage: "review", visit: 2 }
 */
export function parseForkAt(value: string): ForkAt {
  const at = value.trim();
  const sign = at.lastIndexOf("@");
  if (sign === -1 && at !== "") return { stage: at };
  const stage = at.slice(0, sign);
  const visit = at.slice(sign + 1);
  if (stage === "" || !/^[1-9]\d{0,8}$/.test(visit)) {
    throw new BatonError("usage", `--at ${value} names no checkpoint`, { hint: "write --at STAGE or --at STAGE@VISIT (a visit counts from 1); baton show RUN lists the stage visits" });
  }
  return { stage, visit: Number(visit) };
}

/**
 * The workflow a run recorded in `workflow.loaded`: its file, relative to the repository root,
 * which must still be there (a fork runs the graph as it is now); a built-in one by its name.
 */
async function recordedWorkflow(project: Project, events: readonly Envelope[], label: string): Promise<string> {
  const loaded = events.find((event) => event.type === "workflow.loaded");
  const file = loaded?.data["file"];
  const name = loaded?.data["name"];
  if (typeof file !== "string") return typeof name === "string" ? name : "";
  const path = join(project.root, file);
  if (!(await stat(path).then((found) => found.isFile(), () => false))) {
    throw new BatonError("workflow_missing", `${label}'s workflow file ${file} is gone`, { hint: "restore it (the run's workflow.loaded event holds its stages and edges) to fork the run" });
  }
  return path;
}
