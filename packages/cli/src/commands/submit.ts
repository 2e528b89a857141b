import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { basename, isAbsolute, relative, resolve } from "node:path";
import { findAgent } from "@baton/engine/agents";
import { loadConfig, type BatonConfig } from "@baton/engine/config";
import { dispatchTimingFrom, LABEL_PATTERN, submitRun, type RunJob } from "@baton/engine/dispatch";
import { BatonError } from "@baton/engine/errors";
import { definedFields } from "@baton/protocol/core";
import { loadScript } from "@baton/testkit/launch";
import { agentRegistry } from "../agent-registry.ts";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject, type Project } from "../project.ts";
import { loadRunWorkflow, stageScripts } from "./workflow-run.ts";
import { openProjectStore } from "../project-store.ts";
import { resolveLimits, type LimitFlags } from "../run-limits.ts";
import { visibleText } from "../render/terminal-text.ts";

export type SubmitOptions = {
  agent?: string;
  script?: string;
  model?: string;
  json?: boolean;
  /** The branch, tag or commit the run starts from; it must be on the remote. Default: the current branch. */
  base?: string;
  /** The remote workers clone; default: `origin`'s URL. */
  remote?: string;
  /** Only workers with this label claim the run. */
  label?: string;
  requireOutput?: "change" | "none";
  /** A workflow run (a name in .baton/workflows/, a built-in, or a file): the workflow goes with the run. */
  workflow?: string;
  /** With a workflow: every gate takes its first option (a worker has no one to ask). */
  autoApprove?: boolean;
} & LimitFlags;

/** The run options a worker passes on to the run (everything else is the worker's config). */
const PASSED_ON = ["model", "timeout", "maxCost", "maxTokens", "maxToolCalls", "maxRequests", "maxRepeats", "requireOutput", "autoApprove"] as const;

/**
 * `baton submit TASK` (and `baton run --detach` on a shared store): queues a run for the
 * workers (`baton worker`) instead of running it here. Everything is checked before the run
 * exists: the agent, the script, a timeout (workers run unattended), the base on the remote.
 */
export async function submitCommand(ctx: CliContext, taskArg: string | undefined, options: SubmitOptions): Promise<number> {
  const project = await locateProject(ctx.cwd);
  const config = await loadConfig(project.batonDir);
  const agent = options.agent ?? (options.script === undefined ? config.default_agent : "fake");
  if (agent === undefined) throw new BatonError("usage", "no agent chosen", { hint: "pass --agent NAME or set default_agent in .baton/config.toml" });
  const registry = agentRegistry(config);
  const entry = findAgent(registry, agent);
  if (options.autoApprove === true && options.workflow === undefined) throw new BatonError("usage", "--auto-approve answers a workflow's gates", { hint: "pass --workflow NAME, or drop --auto-approve" });
  // Checked here, then sent: the worker runs the workflow as read now, not a file of its own.
  const workflow = options.workflow === undefined ? undefined : await workflowOfJob(ctx, project, config, options.workflow);
  for (const stageAgent of workflow?.agents ?? []) findAgent(registry, stageAgent);
  let script: unknown;
  if (entry.script_arg !== undefined) {
    if (options.script === undefined) throw new BatonError("usage", `the ${agent} agent needs a script`, { hint: "pass --script FILE (a JSON array of steps)" });
    const path = resolve(ctx.cwd, options.script);
    if (workflow !== undefined) await stageScripts(path);
    else {
      try {
        await loadScript(path);
      } catch (error) {
        throw new BatonError("bad_script", (error as Error).message, { hint: "fix the script; `baton run --help` lists the steps" });
      }
    }
    script = JSON.parse(await readFile(path, "utf8"));
  } else if (options.script !== undefined) {
    throw new BatonError("usage", `--script is for the scripted fake agent, not ${agent}`, { hint: "drop --script, or submit with --agent fake" });
  }
  const task = taskArg ?? workflow?.goal ?? (options.script === undefined || workflow !== undefined ? "" : `Play the scripted steps in ${options.script}`);
  if (task.trim().length === 0) throw new BatonError("usage", taskArg === undefined ? "no task given" : "the task is empty", { hint: "pass the task as the first argument" });
  if (resolveLimits(options, config, ctx.env).timeoutMs === undefined) {
    throw new BatonError("usage", "a dispatched run runs unattended and needs a timeout", { hint: "pass --timeout 30m (or set BATON_TIMEOUT, or [limits] timeout)" });
  }
  if (options.label !== undefined && !LABEL_PATTERN.test(options.label)) {
    throw new BatonError("usage", `--label ${JSON.stringify(options.label)} is not a label`, { hint: "a label is letters, digits, - and _ (up to 64)" });
  }
  const remote = options.remote ?? (await originUrl(project.root));
  const { sha, branch } = await baseOnRemote(project.root, remote, options.base);

  await using store = await openProjectStore(ctx, project);
  const passed: Record<string, unknown> = {};
  for (const key of PASSED_ON) if (options[key] !== undefined) passed[key] = options[key];
  const queued = await submitRun(store, definedFields({ task, agent, remote, base: sha, base_branch: branch, script, label: options.label, workflow: workflow?.job, options: passed }), { timing: dispatchTimingFrom(ctx.env) });
  if (options.json === true) ctx.stdout.write(`${JSON.stringify({ run: queued.runId, number: queued.number, job: queued.jobId })}\n`);
  else ctx.stdout.write(`queued run ${queued.number} (${queued.runId}) for the workers at ${sha.slice(0, 12)}${branch === undefined ? "" : ` (${visibleText(branch)})`}: baton events ${queued.number} --follow\n`);
  return EXIT.succeeded;
}

/**
 * The workflow a run is submitted with, read and checked here (one that does not parse or
 * check is refused before anything is queued): a built-in goes by name, a file by its text,
 * with its place in the repository when it is in it.
 */
async function workflowOfJob(ctx: CliContext, project: Project, config: BatonConfig, ref: string): Promise<{ job: NonNullable<RunJob["workflow"]>; goal: string | undefined; agents: string[] }> {
  const definition = await loadRunWorkflow(ref, ctx, project, { config, pr: false });
  const agents = [...new Set(definition.nodes.flatMap((node) => (node.agent === undefined ? [] : [node.agent])))];
  const goal = definition.graph.goal;
  if (definition.file === undefined) return { job: { ref, name: definition.name, builtin: definition.name }, goal, agents };
  const source = await readFile(definition.file, "utf8");
  const inRepo = relative(project.root, definition.file);
  const outside = inRepo.startsWith("..") || isAbsolute(inRepo);
  return { job: definedFields({ ref, name: definition.name, source, path: outside ? undefined : inRepo, file_name: outside ? basename(definition.file) : undefined }), goal, agents };
}

async function originUrl(root: string): Promise<string> {
  try {
    return await git(root, ["remote", "get-url", "origin"]);
  } catch {
    throw new BatonError("no_remote", "the repository has no remote named origin: workers fetch the run's base from a remote", { hint: "add one (git remote add origin URL) or pass --remote URL" });
  }
}

/** The commit the run starts from, as the remote has it: a branch's tip there, or a commit the remote has. */
async function baseOnRemote(root: string, remote: string, base: string | undefined): Promise<{ sha: string; branch?: string }> {
  const branch = base ?? (await git(root, ["rev-parse", "--abbrev-ref", "HEAD"]).catch(() => "HEAD"));
  if (branch !== "HEAD") {
    let listed: string;
    try {
      listed = await git(root, ["ls-remote", remote, `refs/heads/${branch}`, `refs/tags/${branch}`]);
    } catch (error) {
      throw new BatonError("remote_unreachable", `the remote ${remote} cannot be read: ${(error as Error).message.split("\n")[0] ?? ""}`, { hint: "check the remote's URL and access" });
    }
    const sha = listed.split(/\s/)[0];
    if (sha !== undefined && /^[0-9a-f]{40,64}$/.test(sha)) return { sha, branch };
  }
  // A commit: the remote must have it, which only a fetch can tell; the worker checks it.
  const sha = await git(root, ["rev-parse", "--verify", "--quiet", `${branch}^{commit}`]).catch(() => "");
  if (sha !== "" && (branch === "HEAD" || /^[0-9a-f]{7,64}$/.test(branch))) return { sha };
  throw new BatonError("base_not_pushed", `${branch} is not on the remote ${remote}: workers start from what the remote has`, { hint: `push it first (git push origin ${branch}), or pass --base with a branch the remote has` });
}

const exec = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  return (await exec("git", args, { cwd, encoding: "utf8" })).stdout.trim();
}
