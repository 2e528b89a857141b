import { useState } from "preact/hooks";
import type { Api, PermissionAnswer } from "../api/client.ts";
import { formatDuration } from "../format/format.ts";
import type { PermissionItem, PermissionOption } from "./items.ts";
import { permissionWords } from "./permission-words.ts";

/**
 * A permission request: its decision once made, and while a question waits for a person (an
 * `ask` rule, a running run), Allow / Allow for this run / Deny. An answer goes to the API
 * (recorded `via: web`); the decision shown is always the stream's `permission.resolved`.
 */
export function PermissionView({ api, runRef, item, running }: { api: Api; runRef: string; item: PermissionItem; running: boolean }) {
  const { decision, how } = permissionWords(item);
  const open = item.decision === undefined && item.awaitingPerson === true;
  return (
    <div class={`permission${open ? " permission-open" : ""}`} data-call={item.call}>
      <p class="line">
        Permission for {item.tool || "a tool call"}: <strong>{open ? "waiting for a person" : decision}</strong>
        {item.who !== undefined && <span> by {item.who}</span>}
        {how !== "" && !open && <span class="dim"> ({how})</span>}
        {open && item.timeoutMs !== undefined && <span class="dim"> (denied after {formatDuration(item.timeoutMs)} without an answer)</span>}
      </p>
      {open && running && <PermissionControls api={api} runRef={runRef} call={item.call} options={item.options ?? []} />}
    </div>
  );
}

function PermissionControls({ api, runRef, call, options }: { api: Api; runRef: string; call: string; options: readonly PermissionOption[] }) {
  const [sending, setSending] = useState<string>();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const [reason, setReason] = useState("");
  const answer = (what: string, input: PermissionAnswer) => {
    setSending(what);
    setError(undefined);
    api.answerPermission(runRef, call, input).then(
      () => setSent(true),
      (failure: unknown) => {
        setSending(undefined);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  const busy = sending !== undefined;
  return (
    <div class="permission-controls">
      <button type="button" class="allow" disabled={busy} onClick={() => answer("Allow", { action: "allow" })}>
        Allow
      </button>
      <button type="button" class="allow-run" disabled={busy} onClick={() => answer("Allow for this run", { action: "allow", alwaysForRun: true })}>
        Allow for this run
      </button>
      <button type="button" class="deny" disabled={busy} onClick={() => answer("Deny", { action: "deny", reason: reason.trim() })}>
        Deny
      </button>
      {options.length > 0 && (
        <span class="permission-options">
          <span class="dim">The agent offers:</span>
          {options.map((option) => {
            const action = option.kind.startsWith("allow") ? "allow" : "deny";
            return (
              <button key={option.id} type="button" class="option" data-option-kind={option.kind} disabled={busy} onClick={() => answer(option.name || option.id, { action, optionId: option.id, reason: action === "deny" ? reason.trim() : "" })}>
                {option.name || option.id}
              </button>
            );
          })}
        </span>
      )}
      <label class="deny-reason">
        <span class="visually-hidden">Reason for a denial</span>
        <input name="reason" placeholder="Reason (optional, for a denial)" value={reason} onInput={(event) => setReason(event.currentTarget.value)} disabled={busy} />
      </label>
      {busy && (
        <p role="status" class="dim">
          {sent ? `${sending}: sent, waiting for the run to record it…` : `Sending ${sending}…`}
        </p>
      )}
      {error !== undefined && <p role="alert">Could not answer: {error}</p>}
    </div>
  );
}
