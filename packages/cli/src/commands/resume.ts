import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadConfig } from "@baton/engine/config";
import { BatonError } from "@baton/engine/errors";
import { Redactor, secretsFromEnv } from "@baton/engine/redaction";
import { openStore } from "@baton/engine/store";
import { executeWorkflow, type GateDecision } from "@baton/engine/workflow";
import { applyEvent, definedFields, initialRunState } from "@baton/protocol/core";
import { agentRegistry } from "../agent-registry.ts";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { resolveLimits } from "../run-limits.ts";
import { VERSION } from "../version.ts";
import { readLaunch } from "./run-launch.ts";
import { eventView } from "./run-view.ts";
import { agentRunSettings, loadRunWorkflow, nextSteps, stageAgentResolver, stageScripts, workflowExitCode, workflowRequestParts } from "./workflow-run.ts";
import { checkDecision } from "./gate-decision.ts";

export type ResumeOptions = { json?: boolean; detach?: boolean; autoApprove?: boolean; timeout?: number };

/**
 * `baton resume RUN` (and, with a decision, `baton approve|reject|answer RUN`): continues a
 * paused, interrupted or failed workflow run after its last checkpoint, in the same log. Every
 * check comes first: a run that cannot go on, or an answer that fits no option, changes nothing.
 */
export async function resumeCommand(ctx: CliContext, ref: string, options: ResumeOptions, decision?: GateDecision): Promise<number> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  let runId: string;
  const state = initialRunState();
  let attempts = 0;
  /** The workflow file as `workflow.loaded` recorded it, relative to the repository root. */
  let workflowFile: string | undefined;
  {
    await using store = await openStore(project.batonDir);
    const run = store.resolveRun(ref);
    runId = run.id;
    // A run whose process was killed is ended as interrupted first: then it can be resumed.
    await store.recoverIfAbandoned(run.id);
    // One pass over the log, folded as it is read: a long log is never held whole.
    for await (const event of store.readRun(run.id)) {
      applyEvent(state, event);
      if (event.type === "run.started") attempts += 1;
      if (event.type === "workflow.loaded" && typeof event.data["file"] === "string") workflowFile ??= event.data["file"];
    }
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
  if (options.detach === true) return detach(ctx, ref, options, decision);
  const launch = await readLaunch(`${project.batonDir}/runs/${runId}`);
  if (launch === undefined) throw new BatonError("not_resumable", `${label} has no record of how its agents were started`, { hint: "start a new run" });
  const workflowRef = state.workflow.name === "single" ? "single" : workflowFile === undefined ? state.workflow.name : `${project.root}/${workflowFile}`;
  const definition = await loadRunWorkflow(workflowRef, ctx, project);
  const registry = agentRegistry(config);
  const script = launch.script === undefined ? undefined : await stageScripts(launch.script);
  const resolveAgent = stageAgentResolver(ctx, project, registry, { name: launch.agent, model: launch.model, script });
  const task = state.task ?? "";
  const parts = await workflowRequestParts(definition, task, project, ctx.env);
  await using store = await openStore(project.batonDir);
  const writer = await store.openWriter(runId, { resumeFailed: true });
  const unsubscribe = writer.subscribe(eventView(ctx.stdout, options.json === true, { run: state.number }));
  try {
    const result = await executeWorkflow(writer, {
      ...parts,
      task,
      agent: await resolveAgent("", undefined, undefined),
      resolveAgent,
      settings: agentRunSettings(config, { limits: resolveLimits(definedFields({ timeout: options.timeout }), config, ctx.env), redactor: new Redactor(secretsFromEnv(ctx.env)), now: () => new Date(), version: VERSION }),
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
