// One line for each event of a person's input to a running run (steering), and for a captured artifact.
import { type Data, num, str } from "./data.ts";
import type { NoteItem } from "./items.ts";

type Describe = (data: Data) => Pick<NoteItem, "text" | "tone">;

const HOW: Record<string, string> = { mid_turn: "during the turn", next_turn: "as the next turn", with_prompt: "with the next stage's prompt" };

export const PEOPLE_DESCRIBERS: Record<string, Describe> = {
  "input.queued": (d) => ({ text: `${str(d["by"]) ?? "someone"} steered: ${str(d["text"]) ?? ""}`, tone: "info" }),
  "input.delivered": (d) => ({ text: `steering delivered ${HOW[str(d["how"]) ?? ""] ?? str(d["how"]) ?? ""}${num(d["turn"]) !== undefined ? ` (turn ${num(d["turn"])})` : ""}`, tone: "dim" }),
  "artifact.captured": (d) => ({ text: `captured ${str(d["path"]) ?? "a file"} (${str(d["media_type"]) ?? "?"}, ${(num(d["bytes"]) ?? 0).toLocaleString("en")} bytes)`, tone: "info" }),
  "input.rejected": (d) => ({ text: `steering not delivered (${str(d["code"]) ?? "?"})${str(d["message"]) ? `: ${str(d["message"])}` : ""}`, tone: "warn" }),
};
