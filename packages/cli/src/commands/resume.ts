import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadConfig } from "@baton/engine/config";
import { BatonError } from "@baton/engine/errors";
import { mcpSecrets, Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { executeWorkflow, type GateDecision } from "@baton/engine/workflow";
import { applyEvent, definedFields, initialRunState } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject, type Project } from "../project.ts";
import { resolveLimits } from "../run-limits.ts";
import { VERSION } from "../version.ts";
import { readLaunch } from "./run-launch.ts";
import { eventView } from "./run-view.ts";
import { agentRunSettings, loadRunWorkflow, nextSteps, stageAgentResolver, stageScripts, workflowExitCode, workflowRequestParts, workflowProxy } from "./workflow-run.ts";
import { checkDecision } from "./gate-decision.ts";
import { checkAskRules } from "../people-settings.ts";
import { openProjectStore } from "../project-store.ts";
import { prepareSandbox } from "@baton/engine/sandbox";

export type ResumeOptions = { json?: boolean; detach?: boolean; autoApprove?: boolean; timeout?: number };

/**
 * `baton resume RUN` (and, with a decision, `baton approve|reject|answer RUN`): continues a
 * paused, interrupted or failed workflow run after its last checkpoint, in the same log. Every
 * check comes first: a run that cannot go on, or an answer that fits no option, changes nothing.
 */
export async function resumeCommand(ctx: CliContext, ref: string, options: ResumeOptions, decision?: GateDecision, located?: Promise<Project>): Promise<number> {
  const project = await (located ?? locateProject(ctx.cwd));
  const config = await loadConfig(project.batonDir);
  const state = initialRunState();
  let attempts = 0;
  /** The workflow file as `workflow.loaded` recorded it, relative to the repository root. */
  let workflowFile: string | undefined;
  // A sandbox that cannot be made here is refused before the run goes on.
  const sandbox = await prepareSandbox(config.sandbox, { env: ctx.env, projectRoot: project.root, batonDir: project.batonDir });
  // One store for the checks and the resumed run: opening it costs as much as a short log's fold.
  await using store = await openProjectStore(ctx, project);
  const runId = (await store.resolveRun(ref)).id;
  // A run whose process was killed is ended as interrupted first: then it can be resumed.
  await store.recoverIfAbandoned(runId);
  // One pass over the log, folded as it is read: a long log is never held whole.
  for await (const event of store.readRun(runId)) {
    applyEvent(state, event);
    if (event.type === "run.started") attempts += 1;
    if (event.type === "workflow.loaded" && typeof event.data["file"] === "string") workflowFile ??= event.data["file"];
  }
  const label = `run ${state.number ?? ref}`;
  if (state.workflow.name === undefined) throw new BatonError("not_resumable", `${label} is not a workflow run`, { hint: "only runs started with --workflow can be resumed" });
  // A gate whose timeout has passed is no longer waiting: resuming takes its default choice, or fails it closed.
  const gate = state.workflow.gate;
  const timedOut = gate?.timeout_ms !== undefined && Date.now() - Date.parse(gate.requested_at) >= gate.timeout_ms;
  if (decision === undefined && state.status === "paused" && gate !== undefined && !timedOut) {
    throw new BatonError("awaiting_answer", `${label} waits at gate "${gate.gate}"`, { hint: `answer it: baton approve ${state.number} · baton reject ${state.number} · baton answer ${state.number} CHOICE` });
  }
  if (decision !== undefined) checkDecision(state, label, decision);
  if (state.status !== "paused" && state.status !== "failed") {
    throw new BatonError("not_resumable", `${label} is ${state.status}: only a paused or failed run can be resumed`, { hint: state.status === "running" ? `it is still running: baton events ${state.number} --follow` : `start a new run, or fork it: baton fork ${state.number} --at STAGE` });
  }
  // As `baton run` refuses one: a resumed run nobody attends (no terminal, or a process of its
  // own that has none) must not wait for a person with no timeout.
  checkAskRules(config, options.detach !== true && ctx.interactive === true);
  if (options.detach === true) return detach(ctx, ref, options, decision);
  const launch = await readLaunch(`${project.batonDir}/runs/${runId}`);
  if (launch === undefined) throw new BatonError("not_resumable", `${label} has no record of how its agents were started`, { hint: "start a new run" });
  const workflowRef = state.workflow.name === "single" ? "single" : workflowFile === undefined ? state.workflow.name : `${project.root}/${workflowFile}`;
  const definition = await loadRunWorkflow(workflowRef, ctx, project, { config, pr: launch.pr === true, validate: launch.validate });
  const registry = agentRegistry(config);
  const script = launch.script === undefined ? undefined : await stageScripts(launch.script);
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name: launch.agent, model: launch.model, script, mcpServers: config.mcp.servers });
  const proxy = await workflowProxy(ctx, config, registry, launch.agent);
  const task = state.task ?? "";
  // The run's own --validate commands go on with it.
  const parts = await workflowRequestParts(definition, task, project, ctx.env, { config, flags: definedFields({ validate: launch.validate === undefined ? undefined : [...launch.validate] }) });
  const writer = await store.openWriter(runId, { resumeFailed: true });
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, options.json === true, { run: state.number }));
  try {
    const result = await executeWorkflow(writer, {
      ...definedFields({ proxy }),
      ...parts,
      task,
      agent: await resolveAgent("", undefined, undefined),
      resolveAgent,
      settings: agentRunSettings(config, { limits: resolveLimits(definedFields({ timeout: options.timeout }), config, ctx.env), redactor: new Redactor([...secretsFromEnv(ctx.env), ...mcpSecrets(config.mcp.servers)]), now: () => new Date(), version: VERSION, stepSummaryFile: ctx.env["GITHUB_STEP_SUMMARY"], sandbox }, false),
      repo: { root: project.root, dirty: false },
      autoApprove: options.autoApprove === true,
      signal: ctx.signal,
      start: { kind: "resume", state, attempt: attempts + 1, decision },
    });
    if (options.json !== true) ctx.stdout.write(nextSteps(result));
    return workflowExitCode(result);
  } finally {
    unsubscribe();
  }
}

/** `--detach`: the same command in a process of its own that outlives this one; prints where to follow it. */
function detach(ctx: CliContext, ref: string, options: ResumeOptions, decision: GateDecision | undefined): number {
  const bin = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));
  const args = decision === undefined ? ["resume", ref] : decision.kind === "answer" ? ["answer", ref, decision.value ?? ""] : [decision.kind, ref];
  if (decision?.comment !== undefined) args.push("--comment", decision.comment);
  // A decision made in the API or the web page keeps its source in the process that records it.
  if (decision !== undefined && decision.via !== "cli") args.push(`--via=${decision.via}`, `--by=${decision.by}`);
  if (options.autoApprove === true) args.push("--auto-approve");
  const child = spawn(process.execPath, [bin, "-C", ctx.cwd, ...args], { detached: true, stdio: "ignore", env: { ...ctx.env } as NodeJS.ProcessEnv });
  child.unref();
  ctx.stdout.write(`resumed in the background: baton events ${ref} --follow\n`);
  return EXIT.succeeded;
}
