// One line for each workflow event: stages, routes, checkpoints, gates, waits, branches and
// their integration. Text only, like every note; stage names and answers are shown as text.
import { compactDuration } from "../format/limits.ts";
import { formatDuration } from "../format/format.ts";
import { type Data, list, num, record, str } from "./data.ts";
import type { NoteItem } from "./items.ts";

type Describe = (data: Data) => Pick<NoteItem, "text" | "tone">;

const join = (...parts: Array<string | undefined | false>) => parts.filter((p): p is string => typeof p === "string" && p !== "").join(" · ");
const short = (sha: string | undefined) => (sha === undefined ? undefined : sha.slice(0, 10));

export const WORKFLOW_DESCRIBERS: Record<string, Describe> = {
  "workflow.loaded": (d) => ({ text: join(`workflow ${str(d["name"]) ?? "?"}`, `${list(d["nodes"]).length} stages`, str(d["file"])), tone: "dim" }),
  "stage.started": (d) => {
    const attempt = num(d["attempt"]) ?? 1;
    return { text: join(`stage ${str(d["label"]) ?? str(d["stage"]) ?? "?"} started`, str(d["handler"]), attempt > 1 && `attempt ${attempt}/${num(d["max_attempts"]) ?? "?"}`, str(d["agent"]), str(d["model"])), tone: "dim" };
  },
  "stage.completed": (d) => ({ text: join(`stage ${str(d["stage"]) ?? "?"} ${(str(d["outcome"]) ?? "succeeded").replace("_", " ")}`, str(d["summary"]), formatDuration(num(d["duration_ms"]))), tone: "info" }),
  "stage.failed": (d) => {
    const error = record(d["error"]);
    return { text: join(`stage ${str(d["stage"]) ?? "?"} failed`, str(error["code"]), str(error["message"]), d["will_retry"] === true && "will retry"), tone: d["will_retry"] === true ? "warn" : "error" };
  },
  "stage.retrying": (d) => ({ text: `retrying stage ${str(d["stage"]) ?? "?"}: attempt ${num(d["attempt"]) ?? "?"}/${num(d["max_attempts"]) ?? "?"}${num(d["delay_ms"]) ? ` in ${compactDuration(num(d["delay_ms"])!)}` : ""}`, tone: "warn" }),
  "route.selected": (d) => ({ text: join(`→ ${str(d["to"]) ?? "?"}`, str(d["label"]) && `"${str(d["label"])}"`, str(d["condition"]) && `when ${str(d["condition"])}`, str(d["reason"])), tone: "dim" }),
  "context.updated": (d) => ({ text: `context: ${Object.keys(record(d["updates"])).join(", ") || "no change"}`, tone: "dim" }),
  "checkpoint.saved": (d) => ({ text: join("checkpoint", short(str(d["commit"])), str(d["next"]) && `next ${str(d["next"])}`), tone: "dim" }),
  "approval.requested": (d) => ({ text: join(`waiting for an answer: ${str(d["question"]) ?? str(d["gate"]) ?? "?"}`, list(d["options"]).map((option) => str(record(option)["label"]) ?? "?").join(" / ")), tone: "warn" }),
  "approval.resolved": (d) => ({
    text: join(str(d["choice"]) !== undefined ? `answered ${str(d["choice"])}` : str(d["text"]) !== undefined ? `answered "${str(d["text"])}"` : d["approved"] === true ? "approved" : "rejected", str(d["by"]) && `by ${str(d["by"])}`, str(d["via"]) && `via ${str(d["via"])}`, str(d["comment"])),
    tone: d["approved"] === true ? "info" : "warn",
  }),
  "wait.started": (d) => ({ text: join("waiting", num(d["duration_ms"]) !== undefined && compactDuration(num(d["duration_ms"])!), str(d["until"]) && `until ${str(d["until"])}`), tone: "dim" }),
  "parallel.started": (d) => ({ text: `fan-out: ${list(d["branches"]).map((branch) => str(record(branch)["branch"]) ?? "?").join(", ")}`, tone: "info" }),
  "branch.started": (d) => ({ text: join(`branch ${str(d["branch"]) ?? "?"} started`, str(d["git_branch"])), tone: "dim" }),
  "branch.completed": (d) => ({ text: join(`branch ${str(d["branch"]) ?? "?"} ${str(d["outcome"]) ?? "ended"}`, short(str(d["head_sha"]))), tone: d["outcome"] === "failed" ? "error" : "info" }),
  "parallel.completed": (d) => ({ text: `fan-out done: ${list(d["results"]).map((result) => `${str(record(result)["branch"]) ?? "?"} ${str(record(result)["outcome"]) ?? "?"}`).join(", ")}`, tone: "info" }),
  "integration.completed": (d) => ({ text: join(`merged branch ${str(d["branch"]) ?? "?"}`, short(str(d["sha"]))), tone: "info" }),
  "integration.conflicted": (d) => ({ text: `branch ${str(d["branch"]) ?? "?"} conflicts: ${list(d["files"]).map((file) => str(file) ?? "?").join(", ")}`, tone: "error" }),
};
