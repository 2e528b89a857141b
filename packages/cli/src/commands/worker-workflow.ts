import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "@baton/engine/config";
import type { Continuation, RunJob } from "@baton/engine/dispatch";
import { mcpSecrets, Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { prepareSandbox } from "@baton/engine/sandbox";
import type { RunStoreWriter } from "@baton/engine/store";
import { executeWorkflow } from "@baton/engine/workflow";
import { definedFields } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import type { CliContext } from "../context.ts";
import type { Project } from "../project.ts";
import { resolveLimits, type LimitFlags } from "../run-limits.ts";
import { VERSION } from "../version.ts";
import { agentRunSettings, loadRunWorkflow, stageAgentResolver, stageScripts, workflowProxy, workflowRequestParts } from "./workflow-run.ts";

/**
 * The workflow a job carries, as a reference `--workflow` takes on this worker: a built-in by
 * name; a file's text where the repository has it in the checkout (so `@file` prompts resolve
 * beside it, at the run's base) when the base has that very text or git ignores the path there
 * (`.baton/`), else in the worker's folder: the checkout stays clean.
 */
export async function jobWorkflowRef(workflow: NonNullable<RunJob["workflow"]>, run: string, place: { checkout: string; root: string }): Promise<string> {
  if (workflow.builtin !== undefined || workflow.source === undefined) return workflow.builtin ?? workflow.ref;
  if (workflow.path !== undefined) {
    const inCheckout = join(place.checkout, workflow.path);
    if ((await readFile(inCheckout, "utf8").catch(() => undefined)) === workflow.source) return inCheckout;
    if (await ignored(place.checkout, workflow.path)) return written(inCheckout, workflow.source);
  }
  return written(join(place.root, "workflows", run, workflow.file_name ?? basename(workflow.path ?? "workflow.dot")), workflow.source);
}

async function written(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

async function ignored(checkout: string, path: string): Promise<boolean> {
  return exec("git", ["check-ignore", "-q", "--", path], { cwd: checkout }).then(
    () => true,
    () => false,
  );
}

const exec = promisify(execFile);

/**
 * A lost worker's workflow run, going on here from its checkpoint on the remote: `baton
 * resume` on the worker that took it over, its agents started as the job says.
 */
export async function continueWorkflow(ctx: CliContext, project: Project, job: RunJob, place: { writer: RunStoreWriter; workflow: string; script: string | undefined; resume: Continuation }): Promise<void> {
  const config = await loadConfig(project.batonDir);
  const sandbox = await prepareSandbox(config.sandbox, { env: ctx.env, projectRoot: project.root, batonDir: project.batonDir });
  const definition = await loadRunWorkflow(place.workflow, ctx, project, { config, pr: false });
  const registry = agentRegistry(config);
  const model = typeof job.options["model"] === "string" ? job.options["model"] : undefined;
  const script = place.script === undefined ? undefined : await stageScripts(place.script);
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name: job.agent, model, script, mcpServers: config.mcp.servers });
  const proxy = await workflowProxy(ctx, config, registry, job.agent);
  const parts = await workflowRequestParts(definition, job.task, project, ctx.env, { config });
  const { state, attempt, workspace, checkpoint } = place.resume;
  await executeWorkflow(place.writer, {
    ...definedFields({ proxy }),
    ...parts,
    task: job.task,
    agent: await resolveAgent("", undefined, undefined),
    resolveAgent,
    settings: agentRunSettings(config, { limits: resolveLimits(job.options as LimitFlags, config, ctx.env), redactor: new Redactor([...secretsFromEnv(ctx.env), ...mcpSecrets(config.mcp.servers)]), now: () => new Date(), version: VERSION, stepSummaryFile: undefined, sandbox }, true),
    repo: { root: job.remote, sha: job.base, dirty: false },
    autoApprove: job.options["autoApprove"] === true,
    signal: ctx.signal,
    start: { kind: "resume", state, attempt, workspace, checkpoint },
  });
}
