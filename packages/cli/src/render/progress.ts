import { deliveryEventLines } from "./delivery-lines.ts";
import type { Envelope } from "@baton/protocol";
import { type Data, firstLine, lines, num, record, text } from "./event-data.ts";
import { budgetLine, budgetTenth, handbackLine, limitReachedLine, limitWarningLine } from "./limit-lines.ts";
import { stoppedByWords } from "./outcome-words.ts";
import { modelSwitchedLine, providerErrorLine, repeatLine, retryLine, stallLine } from "./recovery-lines.ts";
import { peopleEventLines, permissionResolvedLine } from "./people-lines.ts";
import { workflowEventLines } from "./stage-lines.ts";
import { formatCost, formatDuration, formatTokens, stylerFor } from "./style.ts";
import { turnStartedLine } from "./turn-lines.ts";

/** Longest thought shown in the live view: thoughts are collapsed to their first line. */
const THOUGHT_CHARS = 100;

/** The indent a line of a run's work starts with: a stage's prefix takes its place. Colour codes may come first. */
const BASE_INDENT = /^((?:\x1b\[[0-9;]*m)*) {2}/;

/**
 * The human view of a live run, built from its events alone: streamed text as it arrives,
 * tool calls with duration and exit code, the plan, limits and what went wrong with the
 * provider or the agent, and a closing summary. In a workflow run, each line of a stage's
 * work starts with the stage (and the fan-out branch): `[plan] ⚙ edit …`, `[review/b2] …`.
 */
export class ProgressRenderer {
  readonly #out: NodeJS.WriteStream;
  readonly #style: ReturnType<typeof stylerFor>;
  /** True while streamed text is on the current line, so the next line must start fresh. */
  #streaming = false;
  #streamedKind: string | undefined;
  /** The budget's most used tenth last shown: budgets come often, and show only going up. */
  #budgetTenth = -1;
  /** The stage prefix of the event being rendered (`[plan] `), none outside a stage. */
  #prefix: string | undefined;
  /** The prefix the streamed text on the current line started with. */
  #streamedPrefix: string | undefined;
  /** How the commands a line suggests name the run: its number once known. */
  #run: string | undefined;

  /** `run`: the run's number when the view starts after its `run.created` (a resume). */
  constructor(out: NodeJS.WriteStream, options: { run?: number | undefined } = {}) {
    this.#out = out;
    this.#style = stylerFor(out);
    if (options.run !== undefined) this.#run = String(options.run);
  }

  render(event: Envelope): void {
    const data = event.data as Data;
    const s = this.#style;
    const scope = event.stage;
    this.#prefix = scope === undefined ? undefined : `${s("cyan", `[${text(scope.id)}${scope.branch === undefined ? "" : `/${text(scope.branch)}`}]`)} `;
    switch (event.type) {
      case "run.created": {
        this.#run ??= String(num(data["number"]) ?? text(event.run));
        this.#line(`${s("bold", `▶ run ${num(data["number"]) ?? "?"}`)} ${s("dim", text(event.run))} · agent ${text(data["agent"])}`);
        this.#line(s("dim", `  task: ${firstLine(data["task"], 120)}`));
        const origin = record(data["origin"]);
        if (data["origin"] !== undefined) {
          const commit = text(origin["commit"]).slice(0, 12);
          this.#line(s("dim", `  forked from run ${num(origin["number"]) ?? text(origin["run"])} at ${text(origin["stage"])}@${num(origin["visit"]) ?? "?"}${commit === "" ? "" : ` (${commit})`}`));
        }
        return;
      }
      case "run.started":
        if (data["resumed"] === true) this.#line(`${s("bold", `▶ run ${this.#run ?? text(event.run)} resumed`)} · attempt ${num(data["attempt"]) ?? "?"}`);
        return;
      case "run.paused":
        this.#line(s("yellow", `⏸ paused${data["gate"] === undefined ? ` (${text(data["reason"])})` : ` at gate ${text(data["gate"])}`}`));
        return;
      case "workspace.ready":
        this.#line(s("dim", `  workspace: ${workspaceLine(data)}`));
        return;
      case "git.committed": {
        const files = Array.isArray(data["files"]) ? data["files"].length : 0;
        this.#line(`  ${s("green", "●")} committed ${text(data["sha"]).slice(0, 12)} on ${text(data["branch"])} · ${files} ${files === 1 ? "file" : "files"} · ${firstLine(data["message"], 72)}`);
        return;
      }
      case "agent.delta": {
        if (data["kind"] !== "text") return;
        // Branches of a fan-out stream at once: another stage's text starts a line of its own.
        if (this.#streaming && this.#streamedPrefix !== this.#prefix) this.#endStream();
        const lead = this.#prefix ?? "  ";
        if (!this.#streaming) this.#out.write(lead);
        this.#out.write(lines(data["text"]).replaceAll("\n", `\n${lead}`));
        this.#streaming = true;
        this.#streamedKind = "text";
        this.#streamedPrefix = this.#prefix;
        return;
      }
      case "agent.message":
        if (this.#streamedKind === "text") this.#endStream();
        else this.#line(`  ${lines(data["text"]).replaceAll("\n", "\n  ")}`);
        this.#streamedKind = undefined;
        return;
      case "agent.thought":
        this.#line(s("dim", `  thinking: ${firstLine(data["text"], THOUGHT_CHARS)}`));
        return;
      case "plan.updated":
        this.#line(s("cyan", "  plan:"));
        for (const entry of Array.isArray(data["entries"]) ? (data["entries"] as Data[]) : []) {
          const mark = entry["status"] === "completed" ? "✓" : entry["status"] === "in_progress" ? "…" : " ";
          this.#line(s("cyan", `    [${mark}] ${text(entry["content"])}`));
        }
        return;
      case "tool.started":
        this.#line(`  ${s("yellow", "⚙")} ${text(data["kind"])} ${text(data["title"]) || text(data["target"]) || text(data["tool"])}`);
        return;
      case "tool.completed": {
        const ok = data["status"] === "completed" && data["is_error"] !== true;
        const exit = num(data["exit_code"]);
        const parts = [text(data["status"])];
        if (exit !== undefined) parts.push(`exit ${exit}`);
        parts.push(formatDuration(num(data["duration_ms"])));
        this.#line(`    ${ok ? s("green", "✓") : s("red", "✗")} ${parts.join(" · ")}`);
        return;
      }
      case "permission.resolved":
        this.#line(s("dim", `    ${permissionResolvedLine(data)}`));
        return;
      case "turn.started": {
        const line = turnStartedLine(data);
        if (line !== undefined) this.#line(s("dim", `  ${line}`));
        return;
      }
      case "turn.completed":
        if (data["error"]) this.#line(s("red", `  turn ${num(data["turn"]) ?? "?"} failed: ${text(record(data["error"])["message"])}`));
        return;
      case "budget.updated": {
        const tenth = budgetTenth(data);
        if (tenth === undefined || tenth <= this.#budgetTenth) return;
        this.#budgetTenth = tenth;
        this.#line(s("dim", `  ${budgetLine(data)}`));
        return;
      }
      case "limit.warning":
        this.#line(s("yellow", `  ${limitWarningLine(data)}`));
        return;
      case "limit.reached":
        this.#line(s(data["action"] === "handback" ? "yellow" : "red", `  ${limitReachedLine(data)}`));
        return;
      case "handback.requested":
        this.#line(s("yellow", `  ${handbackLine(data)}`));
        return;
      case "provider.error":
        this.#line(s("red", `  ${providerErrorLine(data)}`));
        return;
      case "retry.scheduled":
        this.#line(s("yellow", `    ${retryLine(data)}`));
        return;
      case "model.switched":
        this.#line(s("yellow", `  ${modelSwitchedLine(data)}`));
        return;
      case "stall.detected":
        this.#line(s("yellow", `  ${stallLine(data)}`));
        return;
      case "repeat.detected":
        this.#line(s("yellow", `  ${repeatLine(data)}`));
        return;
      case "worker.lost":
        this.#line(s("red", `  ✗ worker lost: ${text(data["previous_owner"])} (epoch ${num(data["epoch"]) ?? "?"}, after seq ${num(data["last_seq"]) ?? "?"}); taken over by ${text(data["owner"])}`));
        return;
      case "log":
        // Info logs are for the record; a warning or an error is for the person watching.
        if (data["level"] === "warn" || data["level"] === "error") this.#line(s(data["level"] === "warn" ? "yellow" : "red", `  ⚠ ${text(data["message"])}`));
        return;
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
        this.#summary(event);
        return;
      default:
        for (const [tone, line] of workflowEventLines(event, this.#run ?? text(event.run)) ?? peopleEventLines(event, this.#run ?? text(event.run)) ?? deliveryEventLines(event) ?? []) this.#line(tone === undefined ? line : s(tone, line));
        return;
    }
  }

  #summary(event: Envelope): void {
    const data = event.data as Data;
    const s = this.#style;
    const usage = record(data["usage"]);
    const figures = [formatTokens(num(usage["input_tokens"]) ?? 0, num(usage["output_tokens"]) ?? 0)];
    if (num(data["cost_usd"]) !== undefined) figures.push(formatCost(num(data["cost_usd"])));
    if (num(data["duration_ms"]) !== undefined) figures.push(formatDuration(num(data["duration_ms"])));
    if (event.type === "run.completed" && data["status"] === "stopped") this.#line(`${s("yellow", `■ ${stoppedSentence(data)}`)} · ${figures.join(" · ")}`);
    else if (event.type === "run.completed") this.#line(`${s("green", "✔ succeeded")} · ${figures.join(" · ")}`);
    else if (event.type === "run.cancelled") this.#line(s("yellow", `■ cancelled by ${text(data["by"])}${data["reason"] ? `: ${text(data["reason"])}` : ""}`));
    else {
      const error = record(data["error"]);
      const provider = text(data["provider_error"]);
      this.#line(`${s("red", `✘ failed (${text(error["code"])})`)}: ${text(error["message"])}${provider === "" ? "" : ` · model provider: ${provider}`}`);
    }
  }

  #endStream(): void {
    if (this.#streaming) this.#out.write("\n");
    this.#streaming = false;
  }

  #line(line: string): void {
    this.#endStream();
    const prefix = this.#prefix;
    this.#out.write(`${prefix === undefined ? line : line.split("\n").map((one) => `${prefix}${one.replace(BASE_INDENT, "$1")}`).join("\n")}\n`);
  }
}

/** `worktree .baton/worktrees/3-x on baton/3-x from main @ 0123abcd`, or `in place /repo`. */
export function workspaceLine(data: Data): string {
  if (data["kind"] !== "worktree") return `in place ${text(data["path"])}`;
  const base = text(data["base"]);
  const sha = text(data["base_sha"]).slice(0, 12);
  const from = base !== "" && base !== text(data["base_sha"]) ? `${base} @ ${sha}` : sha;
  return `worktree ${text(data["path"])} on ${text(data["branch"])} from ${from}`;
}

/** `stopped by the time limit; the agent handed back; work committed 89abcdef0123`. */
function stoppedSentence(data: Data): string {
  const by = stoppedByWords(text(data["stopped_by"]) || undefined, text(data["provider_error"]) || undefined);
  const parts = [by === undefined ? "stopped" : `stopped by ${by}`];
  if (data["handed_back"] === true) parts.push("the agent handed back");
  else if (data["handed_back"] === false) parts.push("the agent did not hand back");
  const commit = text(data["commit"]);
  if (commit !== "") parts.push(`work committed ${commit.slice(0, 12)}`);
  return parts.join("; ");
}
