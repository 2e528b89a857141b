import type { PermissionItem } from "./items.ts";

/**
 * The rule Baton names when it answers a permission request that came in a turn it was
 * cancelling (a limit's hand-back or stop): the call was not granted, and no rule decided it.
 */
const CANCELLED_TURN_RULE = "default:turn-cancelled";

/** A permission's decision and what made it, in words: `cancelled`, `its turn was being cancelled`. */
export function permissionWords(item: PermissionItem): { decision: string; how: string } {
  const decision = item.decision ?? "waiting…";
  if (item.rule === CANCELLED_TURN_RULE) return { decision, how: "its turn was being cancelled" };
  return { decision, how: [item.by, item.rule !== undefined ? `rule ${item.rule}` : undefined].filter((part) => part !== undefined).join(", ") };
}
