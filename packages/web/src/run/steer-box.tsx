import { useState } from "preact/hooks";
import type { Api } from "../api/client.ts";
import type { InputState } from "../timeline/timeline.ts";

const HOW: Record<string, string> = { mid_turn: "during its turn", next_turn: "as its next turn", with_prompt: "with the next stage's prompt" };

/**
 * Text for the running agent (`POST /api/runs/{ref}/input`). What came of it is read from the
 * run's stream (input.queued, then input.delivered or input.rejected), never assumed.
 */
export function SteerBox({ api, runRef, inputs }: { api: Api; runRef: string; inputs: ReadonlyMap<string, InputState> }) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [sentId, setSentId] = useState<string>();
  const [error, setError] = useState<string>();
  const send = () => {
    const value = text.trim();
    if (value === "") return;
    setSending(true);
    setError(undefined);
    api.steer(runRef, value).then(
      ({ id }) => {
        setSending(false);
        setSentId(id);
        setText("");
      },
      (failure: unknown) => {
        setSending(false);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  const state = sentId === undefined ? undefined : inputs.get(sentId);
  return (
    <form
      class="steer"
      aria-label="Steer the agent"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label for="steer-text">Tell the agent</label>
      <div class="steer-row">
        <textarea id="steer-text" name="text" rows={2} value={text} disabled={sending} onInput={(event) => setText(event.currentTarget.value)} placeholder="Delivered during its turn, or as its next turn" />
        <button type="submit" disabled={sending || text.trim() === ""}>
          {sending ? "Sending…" : "Send"}
        </button>
      </div>
      {sentId !== undefined && (
        <p role="status" class="steer-status" data-input={sentId} data-state={state?.status ?? "sent"}>
          {state === undefined
            ? "Sent; waiting for the run to take it…"
            : state.status === "queued"
              ? "Queued for the agent."
              : state.status === "delivered"
                ? `Delivered ${HOW[state.how ?? ""] ?? ""}.`
                : `Not delivered (${state.code ?? "?"}).`}
        </p>
      )}
      {error !== undefined && <p role="alert">Could not steer: {error}</p>}
    </form>
  );
}
