import type { BatonConfig } from "@baton/engine/config";
import { BatonError } from "@baton/engine/errors";
import type { PeopleSettings } from "@baton/engine/input";

/**
 * How a run takes people's inputs and answers, from the project's config. `unattended` (`--yes`,
 * a worker): nobody will answer, so the agent's questions are declined at once.
 */
export function peopleSettings(config: BatonConfig, unattended: boolean): PeopleSettings {
  return {
    inputLimits: { maxChars: config.input.max_chars, maxQueued: config.input.max_queued },
    askTimeoutMs: config.permissions.ask_timeout,
    unattended,
  };
}

/**
 * Refuses, before anything starts, an unattended run (no terminal, `--yes`) whose permission
 * rules ask a person with no timeout: its questions could wait for nobody forever.
 */
export function checkAskRules(config: BatonConfig, attended: boolean): void {
  if (attended || config.permissions.ask_timeout !== undefined) return;
  const ask = config.permissions.rules.find((rule) => rule.action === "ask");
  if (ask === undefined) return;
  throw new BatonError("ask_unanswerable", `an unattended run (no terminal on stdin, or --yes) cannot wait for a person: rule "${ask.name}" asks, and ask_timeout is "none"`, {
    hint: 'set ask_timeout = "10m" under [permissions] in .baton/config.toml, or make the rule allow or deny',
  });
}
