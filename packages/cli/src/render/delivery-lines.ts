// Live lines for a run's delivery events: its branch pushed, its pull request, the pipeline's
// artefacts and subtasks. Laid out as the other lines are ("  " first).
import type { Envelope } from "@baton/protocol";
import { type Data, firstLine, num, record, text } from "./event-data.ts";
import type { ToneLine } from "./stage-lines.ts";

const MESSAGE_CHARS = 160;

/** The lines of a delivery event, or undefined for a type that is not one. */
export function deliveryEventLines(event: Envelope): ToneLine[] | undefined {
  const data = event.data as Data;
  switch (event.type) {
    case "git.pushed":
      return [[undefined, `  ⇡ pushed ${text(data["branch"])} to ${text(data["remote"])} · ${text(data["sha"]).slice(0, 12)}`]];
    case "pull_request.created":
      return [["green", `  ⇡ pull request #${num(data["number"]) ?? "?"}${data["draft"] === true ? " (draft)" : ""}: ${text(data["url"])}`]];
    case "pull_request.failed":
      return [["red", `  ✗ no pull request: ${firstLine(record(data["error"])["message"], MESSAGE_CHARS)}`]];
    case "artefact.written":
      return [[undefined, `  ✎ ${text(data["kind"])}: ${text(data["path"])}`]];
    case "subtask.updated":
      return [[data["status"] === "failed" ? "red" : data["status"] === "built" ? "green" : undefined, `  ◇ subtask ${text(data["id"])} ${text(data["status"])}${data["title"] === undefined ? "" : ` · ${firstLine(data["title"], MESSAGE_CHARS)}`}`]];
    case "subtask.integrated": {
      const conflicts = Array.isArray(data["conflicts"]) ? data["conflicts"].map(text) : [];
      const rerun = data["rerun"] === true ? " (rebuilt)" : "";
      if (typeof data["commit"] === "string") return [["green", `  ⤵ subtask ${text(data["id"])} integrated${rerun} · ${data["commit"].slice(0, 12)}`]];
      return [["red", `  ✗ subtask ${text(data["id"])} not integrated${rerun}${conflicts.length === 0 ? "" : `: conflicts in ${conflicts.slice(0, 8).join(", ")}${conflicts.length > 8 ? ", …" : ""}`}`]];
    }
    default:
      return undefined;
  }
}
