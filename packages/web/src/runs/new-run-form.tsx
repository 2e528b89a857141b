import { useState } from "preact/hooks";
import type { Api } from "../api/client.ts";
import { runHash } from "../app/use-hash-route.ts";

/** Starts a run through `POST /api/runs`, then opens its page. */
export function NewRunForm({ api }: { api: Api }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
    };
    const task = field("task");
    const agent = field("agent");
    const workflow = field("workflow");
    // A workflow's goal may be its task.
    if ((task === undefined && workflow === undefined) || agent === undefined) {
      setError("A run needs a task (or a workflow with a goal) and an agent.");
      return;
    }
    setBusy(true);
    const autoApprove = workflow !== undefined && form.get("auto_approve") === "on" ? true : undefined;
    api.createRun({ task, agent, model: field("model"), script: field("script"), timeout: field("timeout"), workflow, auto_approve: autoApprove }).then(
      (run) => {
        setBusy(false);
        window.location.hash = runHash(run.number);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  return (
    <details class="new-run">
      <summary>New run</summary>
      <form onSubmit={submit}>
        <label>
          Task
          <textarea name="task" rows={3} />
        </label>
        <div class="row">
          <label>
            Agent
            <input name="agent" required placeholder="fake, claude, codex…" />
          </label>
          <label>
            Model <span class="dim">(optional)</span>
            <input name="model" />
          </label>
          <label>
            Script <span class="dim">(fake agent)</span>
            <input name="script" placeholder="steps.json (a file in the project)" title="a script file inside the project, relative to its root" />
          </label>
          <label>
            Timeout <span class="dim">(or the project's)</span>
            <input name="timeout" placeholder="30m" pattern="[0-9.]+(ms|s|m|h)?([0-9.]+(ms|s|m|h))*" />
          </label>
          <label>
            Workflow <span class="dim">(optional)</span>
            <input name="workflow" placeholder="a name in .baton/workflows/" pattern="[A-Za-z0-9_][A-Za-z0-9_.\-]*" />
          </label>
        </div>
        <label class="check">
          <input type="checkbox" name="auto_approve" /> Answer every gate with its first option <span class="dim">(workflow runs)</span>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Starting…" : "Start run"}
        </button>
        {error !== undefined && <p role="alert">{error}</p>}
      </form>
    </details>
  );
}
