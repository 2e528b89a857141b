import type { Envelope } from "@baton/protocol/core";
import { formatDuration, formatTokens, formatCost } from "../format/format.ts";
import { type Data, num, record, str } from "./data.ts";
import type { NoteItem } from "./items.ts";
import { PEOPLE_DESCRIBERS } from "./people-notes.ts";
import { RELIABILITY_DESCRIBERS } from "./reliability-notes.ts";
import { WORKFLOW_DESCRIBERS } from "./workflow-notes.ts";

type Note = Pick<NoteItem, "text" | "tone" | "known">;

const join = (...parts: Array<string | undefined | false>) => parts.filter((p): p is string => typeof p === "string" && p !== "").join(" · ");

/** One line for the events that need no rich view. Unknown types get a generic line. */
export function noteFor(event: Envelope): Note {
  const data = record(event.data);
  const describe = DESCRIBERS[event.type];
  if (describe !== undefined && Object.hasOwn(DESCRIBERS, event.type)) return { ...describe(data), known: true };
  if (data["truncated"] === true) return { text: `${event.type} (data truncated: ${num(data["original_bytes"]) ?? "?"} bytes)`, tone: "warn", known: false };
  return { text: event.type, tone: "dim", known: false };
}

const DESCRIBERS: Record<string, (data: Data) => Omit<Note, "known">> = {
  "run.created": (d) => ({ text: join("created", str(d["agent"]) && `agent ${str(d["agent"])}`, str(d["model"])), tone: "dim" }),
  "run.started": (d) => ({ text: join(d["resumed"] === true ? "resumed" : "started", `attempt ${num(d["attempt"]) ?? 1}`), tone: "dim" }),
  "run.paused": (d) => ({ text: join("paused", str(d["reason"]), str(d["gate"]) && `gate ${str(d["gate"])}`), tone: "warn" }),
  log: (d) => ({ text: join(str(d["level"]), str(d["code"]), str(d["message"])), tone: d["level"] === "error" ? "error" : d["level"] === "warn" ? "warn" : "dim" }),
  "workspace.ready": (d) => ({ text: join(`workspace ready (${str(d["kind"]) ?? "?"})`, str(d["branch"]) && `branch ${str(d["branch"])}`), tone: "dim" }),
  "file.changed": (d) => ({ text: `${str(d["change"]) ?? "changed"} ${str(d["path"]) ?? ""}`, tone: "info" }),
  "agent.started": (d) => ({ text: join(`agent ${str(d["agent"]) ?? "?"}${str(d["agent_version"]) ? ` ${str(d["agent_version"])}` : ""} ready`, str(d["model"])), tone: "dim" }),
  "turn.completed": (d) => {
    const error = record(d["error"]);
    if (str(error["message"]) !== undefined) return { text: join(`turn ${num(d["turn"]) ?? "?"} failed`, str(error["code"]), str(error["message"])), tone: "error" };
    return { text: join(`turn ${num(d["turn"]) ?? "?"} ended`, str(d["stop_reason"]), formatDuration(num(d["duration_ms"]))), tone: "dim" };
  },
  "usage.updated": (d) => ({
    text: join(
      `usage (${d["basis"] === "total" ? "total" : "delta"})`,
      (d["input_tokens"] !== undefined || d["output_tokens"] !== undefined) && formatTokens(num(d["input_tokens"]) ?? 0, num(d["output_tokens"]) ?? 0),
      num(d["cost_usd"]) !== undefined && formatCost(num(d["cost_usd"])),
      num(d["context_used"]) !== undefined && `context ${num(d["context_used"])}/${num(d["context_size"]) ?? "?"}`,
    ),
    tone: "dim",
  }),
  "agent.finished": (d) => ({ text: join("agent exited", num(d["exit_code"]) !== undefined && `code ${num(d["exit_code"])}`, str(d["signal"]) && `signal ${str(d["signal"])}`, `${num(d["turns"]) ?? 0} turns`), tone: "dim" }),
  "agent.compacted": () => ({ text: "context compacted", tone: "dim" }),
  "runner.event": (d) => ({ text: `agent sent ${str(d["native_type"]) ?? "an update"} (not translated)`, tone: "dim" }),
  "git.committed": (d) => ({ text: join(`committed ${(str(d["sha"]) ?? "").slice(0, 10)}`, str(d["message"])), tone: "info" }),
  ...RELIABILITY_DESCRIBERS,
  ...WORKFLOW_DESCRIBERS,
  ...PEOPLE_DESCRIBERS,
};
