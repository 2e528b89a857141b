import type { SessionSetup } from "../agents/agent-launch.ts";

/**
 * The session mode Codex gets inside Baton's sandbox: `agent-full-access`, Codex's own sandbox
 * off. Codex confines its commands with bubblewrap, which cannot run nested in Baton's (the
 * kernel refuses its new `/proc` mount where the one above is not fully visible, and every
 * command fails before it starts); its Landlock fallback refuses to run a command confined to
 * files without bubblewrap ("filesystem-restricted execution requires bubblewrap"). Baton's
 * sandbox is then the boundary; in this mode Codex asks no permission, so Baton's permission
 * rules do not see its commands.
 */
export const CODEX_SANDBOXED_MODE = "agent-full-access";

/** The session setup of an agent in Baton's sandbox: Codex's own sandbox turned off, others as they are. */
export function sandboxedSetup(agentName: string, command: string, setup: SessionSetup | undefined): SessionSetup | undefined {
  if (!isCodex(agentName, command) || setup === undefined) return setup;
  return { ...setup, sessionMode: CODEX_SANDBOXED_MODE };
}

/** Whether an agent's command is Codex's ACP adapter (the built-in `codex` entry or one like it). */
export function isCodex(agentName: string, command: string): boolean {
  return agentName === "codex" || /codex-acp(\.js)?$/.test(command);
}
