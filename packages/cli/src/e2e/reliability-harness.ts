import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Envelope } from "@baton/protocol";
import type { ScriptInput } from "@baton/testkit/launch";
import { makeRepo, parseNdjson, runBaton, writeScript, type CliResult } from "./cli-harness.ts";
import { definedFields } from "@baton/protocol/core";

/** Short waits so that provider-failure tests run in well under a second of waiting. */
export const FAST_RETRY = `
[retry]
rate_limited = ["100ms", "150ms", "200ms"]
overloaded = ["50ms", "60ms"]
jitter = 0
max_retry_after = "3s"
`;

export type ScriptedRun = CliResult & { events: Envelope[]; repo: string };

/**
 * One `baton run --json` of the fake agent with a multi-turn script, in a fresh repository
 * whose config.toml is `config` (when given). Returns the exit, the output and the run's events.
 */
export async function runScripted(name: string, turns: ScriptInput, options: { args?: string[]; config?: string; env?: Record<string, string> } = {}): Promise<ScriptedRun> {
  const repo = await makeRepo(`cli-${name}-`);
  if (options.config !== undefined) await writeFile(join(repo, ".baton", "config.toml"), options.config);
  const script = await writeScript(repo, `${name}.json`, turns);
  const result = await runBaton(repo, ["run", `Task of ${name}`, "--agent", "fake", "--script", script, "--json", ...(options.args ?? [])], definedFields({ env: options.env }));
  return { ...result, events: parseNdjson<Envelope>(result.stdout), repo };
}

export function ofType(events: readonly Envelope[], type: string): Record<string, unknown>[] {
  return events.filter((event) => event.type === type).map((event) => event.data);
}

/** The reasons of the run's turns, in order. */
export function turnReasons(events: readonly Envelope[]): unknown[] {
  return ofType(events, "turn.started").map((data) => data["reason"]);
}

export function finalEvent(events: readonly Envelope[]): Envelope | undefined {
  return events.at(-1);
}
