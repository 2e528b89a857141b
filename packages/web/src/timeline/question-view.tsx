import { useState } from "preact/hooks";
import type { Api, QuestionReply } from "../api/client.ts";
import { formatDuration } from "../format/format.ts";
import type { QuestionField, QuestionItem } from "./items.ts";

type Values = Record<string, string | boolean | string[]>;

/**
 * A question the agent asked (ACP elicitation): its message, and while it waits for a person (a
 * running run) its form, with Send and Decline. The reply goes to the API (recorded `via: web`),
 * which checks it against the form; what the agent was told is always the stream's
 * `question.answered`.
 */
export function QuestionView({ api, runRef, item, running }: { api: Api; runRef: string; item: QuestionItem; running: boolean }) {
  const open = item.action === undefined && item.awaitingPerson === true;
  return (
    <div class={`question${open ? " question-open" : ""}`} data-question={item.id}>
      <p class="line">
        The agent asks: <strong>{item.message}</strong>
        {open && item.timeoutMs !== undefined && <span class="dim"> (declined after {formatDuration(item.timeoutMs)} without an answer)</span>}
      </p>
      {item.action !== undefined && <p class="line question-answer">{answerWords(item)}</p>}
      {open && running && <QuestionForm api={api} runRef={runRef} item={item} />}
    </div>
  );
}

function answerWords(item: QuestionItem): string {
  const how = item.by === "human" ? `by ${item.who ?? "a person"}` : `rule ${item.rule ?? "?"}`;
  const content = item.content === undefined ? "" : ` ${Object.entries(item.content).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`).join("; ")}`;
  const verb = item.action === "accept" ? "Answered" : item.action === "decline" ? "Declined" : "Cancelled";
  return `${verb}${content} (${how}${item.reason === undefined ? "" : `: ${item.reason}`})`;
}

function QuestionForm({ api, runRef, item }: { api: Api; runRef: string; item: QuestionItem }) {
  const [values, setValues] = useState<Values>({});
  const [sending, setSending] = useState<string>();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const send = (what: string, reply: QuestionReply) => {
    setSending(what);
    setError(undefined);
    api.answerQuestion(runRef, item.id, reply).then(
      () => setSent(true),
      (failure: unknown) => {
        setSending(undefined);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  const set = (name: string, value: string | boolean | string[]) => setValues((current) => ({ ...current, [name]: value }));
  const busy = sending !== undefined;
  return (
    <form
      class="question-form"
      // The server checks the answer against the form and says what is wrong, in Baton's words.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send("the answer", { action: "accept", content: contentOf(item.fields, values) });
      }}
    >
      {item.fields.map((field) => (
        <FieldInput key={field.name} field={field} value={values[field.name]} set={(value) => set(field.name, value)} disabled={busy} />
      ))}
      <div class="question-buttons">
        <button type="submit" class="question-send" disabled={busy}>
          Send answer
        </button>
        <button type="button" class="question-decline" disabled={busy} onClick={() => send("the decline", { action: "decline" })}>
          Decline
        </button>
      </div>
      {busy && (
        <p role="status" class="dim">
          {sent ? `Sent ${sending}, waiting for the run to record it…` : `Sending ${sending}…`}
        </p>
      )}
      {error !== undefined && <p role="alert">Could not answer: {error}</p>}
    </form>
  );
}

function FieldInput({ field, value, set, disabled }: { field: QuestionField; value: Values[string] | undefined; set: (value: string | boolean | string[]) => void; disabled: boolean }) {
  const label = `${field.title ?? field.name}${field.required ? " (required)" : ""}`;
  const about = field.description === undefined ? undefined : <span class="dim"> {field.description}</span>;
  if (field.options !== undefined && (field.type === "string" || field.type === "array")) {
    const several = field.type === "array";
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset class="question-field" data-field={field.name}>
        <legend>
          {label}
          {about}
        </legend>
        {field.options.map((option) => (
          <label key={option.value} class="question-option">
            <input
              type={several ? "checkbox" : "radio"}
              name={field.name}
              value={option.value}
              checked={several ? chosen.includes(option.value) : value === option.value}
              disabled={disabled}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                if (!several) set(option.value);
                else set(checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value));
              }}
            />
            {option.title ?? option.value}
            {option.description !== undefined && <span class="dim"> — {option.description}</span>}
          </label>
        ))}
      </fieldset>
    );
  }
  if (field.type === "boolean") {
    return (
      <label class="question-field" data-field={field.name}>
        <input type="checkbox" name={field.name} checked={value === true} disabled={disabled} onChange={(event) => set(event.currentTarget.checked)} />
        {label}
        {about}
      </label>
    );
  }
  const known = field.type === "string" || field.type === "number" || field.type === "integer";
  return (
    <label class="question-field" data-field={field.name}>
      <span>
        {label}
        {about}
      </span>
      {field.type === "string" ? (
        <input name={field.name} type="text" value={typeof value === "string" ? value : ""} disabled={disabled} onInput={(event) => set(event.currentTarget.value)} />
      ) : known ? (
        <input name={field.name} type="number" step={field.type === "integer" ? 1 : "any"} min={field.min} max={field.max} value={typeof value === "string" ? value : ""} disabled={disabled} onInput={(event) => set(event.currentTarget.value)} />
      ) : (
        <span class="dim"> (a {field.type} field, which Baton cannot fill)</span>
      )}
    </label>
  );
}

/** The form's values as the API takes them: empty ones left out, numbers as numbers, an unchecked box false only when required. */
export function contentOf(fields: readonly QuestionField[], values: Values): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === "boolean") {
      if (value === true || field.required) content[field.name] = value === true;
    } else if (Array.isArray(value)) {
      if (value.length > 0) content[field.name] = value;
    } else if (typeof value === "string" && value.trim() !== "") {
      content[field.name] = field.type === "number" || field.type === "integer" ? Number(value) : value;
    }
  }
  return content;
}
