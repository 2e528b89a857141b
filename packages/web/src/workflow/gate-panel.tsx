import { useState } from "preact/hooks";
import type { GateState } from "@baton/protocol/core";
import type { Api, GateDecisionInput } from "../api/client.ts";

/**
 * The gate a paused run waits at: its question, one button per option, a text box when it
 * takes free text, and Reject. A decision goes to the API (recorded `via: web`); the panel
 * stays, its buttons off, until the stream brings `approval.resolved` and the page drops it.
 */
export function GatePanel({ api, runRef, gate }: { api: Api; runRef: string; gate: GateState }) {
  const [sending, setSending] = useState<string>();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const [comment, setComment] = useState("");
  const [text, setText] = useState("");
  const decide = (decision: GateDecisionInput, what: string) => {
    setSending(what);
    setError(undefined);
    const note = comment.trim();
    api.decideGate(runRef, note === "" ? decision : { ...decision, comment: note }).then(
      () => setSent(true),
      (failure: unknown) => {
        setSending(undefined);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  const busy = sending !== undefined;
  return (
    <section class="gate" aria-labelledby="gate-title" data-gate={gate.gate}>
      <h2 id="gate-title">Waiting for an answer</h2>
      <p class="gate-question">{gate.question || gate.gate}</p>
      <div class="gate-options">
        {gate.options.map((option) => (
          <button key={option.label} type="button" data-option={option.label} disabled={busy} onClick={() => decide({ kind: "answer", answer: option.label }, option.label)}>
            {option.label}
          </button>
        ))}
        <button type="button" class="reject" data-option="" disabled={busy} onClick={() => decide({ kind: "reject" }, "Reject")}>
          Reject
        </button>
      </div>
      {gate.freeform && (
        <form
          class="gate-text"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() !== "") decide({ kind: "answer", answer: text.trim() }, "answer");
          }}
        >
          <label>
            Your answer
            <textarea name="answer" rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} disabled={busy} />
          </label>
          <button type="submit" disabled={busy || text.trim() === ""}>
            Send answer
          </button>
        </form>
      )}
      <label class="gate-comment">
        <span>
          Comment <span class="dim">(optional, recorded with the answer)</span>
        </span>
        <input name="comment" value={comment} onInput={(event) => setComment(event.currentTarget.value)} disabled={busy} />
      </label>
      {busy && (
        <p role="status" class="dim">
          {sent ? `${sending}: recorded, the run is resuming…` : `Sending ${sending}…`}
        </p>
      )}
      {error !== undefined && <p role="alert">Could not answer: {error}</p>}
    </section>
  );
}
