import type { Envelope } from "@baton/protocol";
import { firstLine, num, text, type Data } from "./event-data.ts";

type Tone = "yellow" | "dim" | "cyan" | "red" | undefined;

/** What a person did or is asked, in the live view: inputs sent to the agent, questions waiting for an answer. */
export function peopleEventLines(event: Envelope, run: string): Array<[Tone, string]> | undefined {
  const data = event.data as Data;
  switch (event.type) {
    case "input.queued":
      return [["cyan", `  ✉ ${text(data["by"])}: ${firstLine(data["text"], 120)} (${text(data["id"])})`]];
    case "input.delivered":
      return [["dim", `    input ${text(data["id"])} delivered ${deliveryWords(text(data["how"]))}`]];
    case "input.rejected":
      return [["red", `  ✉ input ${text(data["id"])} refused (${text(data["code"])}): ${text(data["message"])}`]];
    case "permission.requested": {
      if (data["awaiting"] !== "person") return [];
      const call = text(data["call"]);
      const timeout = num(data["timeout_ms"]);
      const within = timeout === undefined ? "" : `, denied in ${Math.round(timeout / 1000)}s without an answer`;
      return [["yellow", `  ? ${text(data["tool"])} asks permission (rule ${text(data["rule"])}${within}): baton allow ${run} ${call} · baton deny ${run} ${call}`]];
    }
    case "question.asked":
      return questionAskedLines(data, run);
    case "question.answered":
      return [["dim", `    ${questionAnsweredLine(data)}`]];
    default:
      return undefined;
  }
}

/** A question the agent asked: its message, the fields of its form, and how to answer it. */
function questionAskedLines(data: Data, run: string): Array<[Tone, string]> {
  const id = text(data["id"]);
  const lines: Array<[Tone, string]> = [["yellow", `  ? the agent asks: ${firstLine(data["message"], 200)} (${id})`]];
  if (data["awaiting"] !== "person") return lines;
  const fields = Array.isArray(data["fields"]) ? (data["fields"] as Data[]) : [];
  for (const field of fields) {
    const options = Array.isArray(field["options"]) ? (field["options"] as Data[]).map((option) => text(option["value"])) : [];
    const takes = options.length > 0 ? `${field["type"] === "array" ? "several of" : "one of"} ${options.join(" | ")}` : text(field["type"]);
    const about = text(field["title"]) || text(field["description"]);
    lines.push(["yellow", `      ${text(field["name"])}${field["required"] === true ? "" : "?"}: ${takes}${about === "" ? "" : ` (${firstLine(about, 80)})`}`]);
  }
  const timeout = num(data["timeout_ms"]);
  const within = timeout === undefined ? "" : ` (declined in ${Math.round(timeout / 1000)}s without an answer)`;
  lines.push(["yellow", `    answer: baton reply ${run} ${id} FIELD=VALUE… · baton reply ${run} ${id} --decline${within}`]);
  return lines;
}

/** The line of an answered question: what the agent was told, and who or which rule decided. */
export function questionAnsweredLine(data: Data): string {
  const action = text(data["action"]);
  const content = data["content"] !== undefined && typeof data["content"] === "object" ? ` ${firstLine(JSON.stringify(data["content"]), 160)}` : "";
  if (data["by"] === "human") return `question ${text(data["id"])}: ${action}${content} (by ${text(data["who"]) || "a person"}${data["reason"] === undefined ? "" : `: ${text(data["reason"])}`})`;
  return `question ${text(data["id"])}: ${action} (rule ${text(data["rule"])}${data["reason"] === undefined ? "" : `: ${text(data["reason"])}`})`;
}

/** The line of an answered permission: the rule, and who when a person answered. */
export function permissionResolvedLine(data: Data): string {
  if (data["rule"] === "default:turn-cancelled") return `permission: ${text(data["decision"])} (its turn was being cancelled)`;
  if (data["by"] === "human") return `permission: ${text(data["decision"])} (by ${text(data["who"]) || "a person"}${data["reason"] === undefined ? "" : `: ${text(data["reason"])}`})`;
  return `permission: ${text(data["decision"])} (rule ${text(data["rule"])})`;
}

function deliveryWords(how: string): string {
  if (how === "mid_turn") return "mid-turn";
  if (how === "next_turn") return "as a turn of its own";
  return "with the stage's prompt";
}
