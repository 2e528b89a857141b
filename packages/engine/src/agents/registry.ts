import { BatonError } from "../errors.ts";
import { agentEntrySchema, type AgentConfig, type AgentEntry, type AgentEntryInput } from "./agent-entry.ts";

/** Every agent Baton can start, by name: built-ins with the project's config laid over them. */
export type AgentRegistry = ReadonlyMap<string, AgentEntry>;

/**
 * Builds the registry from built-in entries and `[agents.<name>]` tables. A table for a
 * built-in changes it (`pass_env` and `env` add, other fields replace); any other table is a
 * new agent and must name its `command`.
 *
 * @throws BatonError `bad_config` for an entry that is not complete or not valid.
 */
export function buildRegistry(builtins: Readonly<Record<string, AgentEntryInput>>, configured: Readonly<Record<string, AgentConfig>> = {}): AgentRegistry {
  const registry = new Map<string, AgentEntry>();
  for (const [name, entry] of Object.entries(builtins)) registry.set(name, parseEntry(name, entry));
  for (const [name, config] of Object.entries(configured)) {
    const base = builtins[name];
    if (base === undefined && config.command === undefined) {
      throw new BatonError("bad_config", `[agents.${name}] is not a built-in agent and has no command`, {
        hint: `give it command = "…", or use one of the built-ins: ${Object.keys(builtins).join(", ")}`,
      });
    }
    registry.set(name, parseEntry(name, base === undefined ? config : mergeEntry(base, config)));
  }
  return registry;
}

/** A config table over a built-in entry: `pass_env` and `env` add to its, the rest replaces. */
export function mergeEntry(base: AgentEntryInput, config: AgentConfig): AgentEntryInput {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(config)) if (value !== undefined) merged[key] = value;
  merged["pass_env"] = [...new Set([...(base.pass_env ?? []), ...(config.pass_env ?? [])])];
  merged["env"] = { ...base.env, ...config.env };
  return merged as AgentEntryInput;
}

function parseEntry(name: string, entry: unknown): AgentEntry {
  // A few entries, once per process: building zod's compiled fast path (its jit) costs more than it saves.
  const parsed = agentEntrySchema.safeParse(entry, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = ["agents", name, ...(issue?.path.map(String) ?? [])].join(".");
  throw new BatonError("bad_config", `${where}: ${issue?.message ?? "invalid"}`, { hint: "see the Agents section of the README" });
}

/**
 * The entry for `--agent NAME`.
 *
 * @throws BatonError `unknown_agent` listing the known names.
 */
export function findAgent(registry: AgentRegistry, name: string): AgentEntry {
  const entry = registry.get(name);
  if (entry === undefined) {
    throw new BatonError("unknown_agent", `unknown agent "${name}"`, { hint: `known agents: ${[...registry.keys()].join(", ")}` });
  }
  return entry;
}
