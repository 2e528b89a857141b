import type { Envelope } from "@baton/protocol";
import { formatCost, formatDuration, formatTokens, stylerFor } from "./style.ts";

type Data = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : "");
const num = (value: unknown) => (typeof value === "number" ? value : undefined);

/** Longest thought shown in the live view: thoughts are collapsed to their first line. */
const THOUGHT_CHARS = 100;

/**
 * The human view of a live run, built from its events alone: streamed text as it arrives,
 * tool calls with duration and exit code, the plan, and a closing summary.
 */
export class ProgressRenderer {
  readonly #out: NodeJS.WriteStream;
  readonly #style: ReturnType<typeof stylerFor>;
  /** True while streamed text is on the current line, so the next line must start fresh. */
  #streaming = false;
  #streamedKind: string | undefined;

  constructor(out: NodeJS.WriteStream) {
    this.#out = out;
    this.#style = stylerFor(out);
  }

  render(event: Envelope): void {
    const data = event.data as Data;
    const s = this.#style;
    switch (event.type) {
      case "run.created":
        this.#line(`${s("bold", `▶ run ${num(data["number"]) ?? "?"}`)} ${s("dim", event.run)} · agent ${text(data["agent"])}`);
        this.#line(s("dim", `  task: ${firstLine(text(data["task"]), 120)}`));
        return;
      case "workspace.ready":
        this.#line(s("dim", `  workspace: ${workspaceLine(data)}`));
        return;
      case "git.committed": {
        const files = Array.isArray(data["files"]) ? data["files"].length : 0;
        this.#line(`  ${s("green", "●")} committed ${text(data["sha"]).slice(0, 12)} on ${text(data["branch"])} · ${files} ${files === 1 ? "file" : "files"} · ${firstLine(text(data["message"]), 72)}`);
        return;
      }
      case "agent.delta":
        if (data["kind"] !== "text") return;
        if (!this.#streaming) this.#out.write("  ");
        this.#out.write(text(data["text"]).replaceAll("\n", "\n  "));
        this.#streaming = true;
        this.#streamedKind = "text";
        return;
      case "agent.message":
        if (this.#streamedKind === "text") this.#endStream();
        else this.#line(`  ${text(data["text"]).replaceAll("\n", "\n  ")}`);
        this.#streamedKind = undefined;
        return;
      case "agent.thought":
        this.#line(s("dim", `  thinking: ${firstLine(text(data["text"]), THOUGHT_CHARS)}`));
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
        this.#line(s("dim", `    permission: ${text(data["decision"])} (rule ${text(data["rule"])})`));
        return;
      case "turn.completed":
        if (data["error"]) this.#line(s("red", `  turn ${num(data["turn"]) ?? "?"} failed: ${text((data["error"] as Data)["message"])}`));
        return;
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
        this.#summary(event);
        return;
      default:
        return;
    }
  }

  #summary(event: Envelope): void {
    const data = event.data as Data;
    const s = this.#style;
    const usage = (data["usage"] ?? {}) as Data;
    const figures = [formatTokens(num(usage["input_tokens"]) ?? 0, num(usage["output_tokens"]) ?? 0)];
    if (num(data["cost_usd"]) !== undefined) figures.push(formatCost(num(data["cost_usd"])));
    if (num(data["duration_ms"]) !== undefined) figures.push(formatDuration(num(data["duration_ms"])));
    if (event.type === "run.completed") this.#line(`${s("green", "✔ succeeded")} · ${figures.join(" · ")}`);
    else if (event.type === "run.cancelled") this.#line(s("yellow", `■ cancelled by ${text(data["by"])}${data["reason"] ? `: ${text(data["reason"])}` : ""}`));
    else {
      const error = (data["error"] ?? {}) as Data;
      this.#line(`${s("red", `✘ failed (${text(error["code"])})`)}: ${text(error["message"])}`);
    }
  }

  #endStream(): void {
    if (this.#streaming) this.#out.write("\n");
    this.#streaming = false;
  }

  #line(line: string): void {
    this.#endStream();
    this.#out.write(`${line}\n`);
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

function firstLine(value: string, max: number): string {
  const line = value.split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
