import type { Envelope } from "@baton/protocol";
import { ProgressRenderer } from "../render/progress.ts";

/**
 * How a run is shown while it runs: live progress lines, or (`--json`) every durable envelope
 * as one NDJSON line and nothing else. `run`: the run's number, for a view that starts after
 * its `run.created` (a resumed run).
 */
export function eventView(out: NodeJS.WriteStream, json: boolean, options: { run?: number | undefined } = {}): (event: Envelope) => void {
  if (json) {
    return (event) => {
      if (event.seq !== undefined) out.write(`${JSON.stringify(event)}\n`);
    };
  }
  const renderer = new ProgressRenderer(out, options);
  return (event) => renderer.render(event);
}
