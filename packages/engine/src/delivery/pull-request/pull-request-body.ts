import type { RunState } from "@baton/protocol/core";

/** A validation command's last result in the run. */
export type ValidationLine = { command: string; passed: boolean; round: number };

export type PullRequestFacts = {
  runId: string;
  number: number;
  task: string;
  branch: string;
  base: string;
  remote: string;
  /** `git diff --stat` of the base to the branch. */
  diffStat: string;
  /** The branch's commits (`git log --oneline base..branch`). */
  commits: string;
  state: RunState;
  validation: readonly ValidationLine[];
};

/** Titles GitHub takes: one line, at most 256 characters. */
export function pullRequestTitle(task: string): string {
  const line = task.split("\n").find((text) => text.trim() !== "")?.trim() ?? "Baton run";
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}

/** A pull request's body, from the run: what changed, its stages, validation, usage and cost, how to reproduce. */
export function pullRequestBody(facts: PullRequestFacts): string {
  const { state } = facts;
  const sections = [
    `${facts.task.trim()}\n`,
    "## What changed\n",
    "```",
    facts.diffStat.trim() === "" ? "(no file changes)" : facts.diffStat.trim(),
    "```\n",
    facts.commits.trim() === "" ? "" : `${facts.commits.trim().split("\n").map((line) => `- ${line}`).join("\n")}\n`,
  ];
  const stages = state.workflow.stages;
  if (stages.length > 0) {
    sections.push(`## Stages (${state.workflow.name ?? "workflow"})\n`, ...stages.filter((visit) => visit.handler !== "start" && visit.handler !== "exit").map((visit) => `- ${visit.stage}${visit.visit > 1 ? ` (visit ${visit.visit})` : ""}: ${visit.status}`), "");
  }
  sections.push("## Validation\n");
  if (facts.validation.length === 0) sections.push("No validation commands were configured.\n");
  else sections.push(...facts.validation.map((line) => `- ${line.passed ? "✅" : "❌"} \`${line.command}\`${line.round > 0 ? ` (after ${line.round} fix round${line.round === 1 ? "" : "s"})` : ""}`), "");
  const usage = state.usage;
  const cost = state.cost_usd === undefined ? "not reported" : `$${state.cost_usd.toFixed(4)}`;
  sections.push(
    "## Usage and cost\n",
    `- agent: ${state.agent ?? "?"}${state.model === undefined ? "" : ` (${state.model})`}`,
    `- tokens: ${usage.input_tokens} in, ${usage.output_tokens} out${usage.cache_read_tokens > 0 ? `, ${usage.cache_read_tokens} cache read` : ""}`,
    `- cost: ${cost}`,
    `- tool calls: ${state.counts.tool_calls}`,
    "",
    "## How to reproduce\n",
    "```sh",
    `git fetch ${facts.remote} ${facts.branch} && git checkout ${facts.branch}`,
    `baton show ${facts.number}        # the run, its stages and events`,
    `baton run ${shellWord(pullRequestTitle(facts.task))}${state.workflow.name === undefined ? "" : ` --workflow ${state.workflow.name}`}`,
    "```\n",
    `Opened by Baton from run ${facts.runId} (run ${facts.number}), branch \`${facts.branch}\` into \`${facts.base}\`.`,
  );
  return sections.filter((line, index, all) => !(line === "" && all[index - 1] === "")).join("\n");
}

function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
