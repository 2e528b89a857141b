import type { WalkNode } from "../workflow-router.ts";

/**
 * Branches of a fan-out run at once up to this many when its node sets no `max_parallel`: each
 * is an agent process (or a command) and a worktree, and a `foreach` over a long list must not
 * start them all together.
 */
export const DEFAULT_MAX_PARALLEL = 8;

/** Longest branch id made from a stage id: it is part of a git branch and a folder name. */
const MAX_BRANCH_ID_CHARS = 40;

/** One branch a fan-out will run: where it starts, and for a `foreach` its item and position. */
export type PlannedBranch = { branch: string; target: string; item?: unknown; index?: number };

export type BranchPlan = {
  branches: PlannedBranch[];
  joinPolicy: "wait_all" | "first_success";
  maxParallel: number;
  fanIn: string;
};

export type PlanInput = {
  node: WalkNode;
  /** The fan-out's out-edge targets, in edge order. */
  targets: readonly string[];
  fanIn: string | undefined;
  context: Readonly<Record<string, unknown>>;
  visit: number;
};

/**
 * The branches of one fan-out visit. A parallel stage has one per out-edge, named after its
 * target; a `foreach` one per item of its context list (`item-0`, `item-1`, …), all starting
 * at its one out-edge's target. A visit after the first adds `@<visit>` to every id, so a
 * fan-out in a loop never reuses the git branch of an earlier visit. Pure.
 */
export function planBranches(input: PlanInput): BranchPlan | { error: { code: string; message: string } } {
  const { node, targets, fanIn } = input;
  if (targets.length === 0) return { error: { code: "no_branches", message: `${node.handler} stage "${node.id}" has no outgoing edge to start a branch at` } };
  if (fanIn === undefined) return { error: { code: "no_fan_in", message: `${node.handler} stage "${node.id}" reaches no fan-in stage: its branches would never be merged` } };
  const suffix = input.visit > 1 ? `@${input.visit}` : "";
  let branches: PlannedBranch[];
  if (node.handler === "foreach") {
    const items = foreachItems(node, input.context);
    if ("error" in items) return items;
    const target = targets[0] as string;
    branches = items.items.map((item, index) => ({ branch: `item-${index}${suffix}`, target, item, index }));
  } else {
    const ids = uniqueIds(targets.map(branchIdOf));
    branches = targets.map((target, k) => ({ branch: `${ids[k] as string}${suffix}`, target }));
  }
  const limit = node.max_parallel ?? DEFAULT_MAX_PARALLEL;
  return { branches, joinPolicy: node.join_policy ?? "wait_all", maxParallel: Math.max(1, Math.min(limit, branches.length)), fanIn };
}

/**
 * A `foreach`'s items: its context value as a JSON array, or a string holding one (what a
 * command stage printed, in `command.output`). Anything else is an error naming the key.
 */
export function foreachItems(node: WalkNode, context: Readonly<Record<string, unknown>>): { items: unknown[] } | { error: { code: string; message: string } } {
  const key = node.over;
  if (key === undefined || key === "") return { error: { code: "foreach_without_list", message: `foreach stage "${node.id}" names no context list (over="context.KEY")` } };
  const value = Object.hasOwn(context, key) ? context[key] : undefined;
  if (value === undefined || value === null) {
    return { error: { code: "foreach_list_missing", message: `foreach stage "${node.id}" runs over context.${key}, which no stage has set: an earlier stage must write the list (a context update, e.g. {"context_updates": {"${key}": [...]}})` } };
  }
  const list = typeof value === "string" ? parseList(value) : value;
  if (!Array.isArray(list)) {
    return { error: { code: "foreach_not_a_list", message: `foreach stage "${node.id}" runs over context.${key}, which is ${describe(value)}, not a JSON array` } };
  }
  return { items: list as unknown[] };
}

function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return `the text "${value.length > 40 ? `${value.slice(0, 39)}…` : value}"`;
  return Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `the ${typeof value} ${String(value)}`;
}

/** A stage id as a branch id: letters, digits, `_` and `-` (it becomes part of a git branch and a folder name). */
export function branchIdOf(stage: string): string {
  const id = stage.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX_BRANCH_ID_CHARS);
  return id === "" ? "branch" : id;
}

/** Ids made unique in order: a second `a` becomes `a-2`. */
function uniqueIds(ids: readonly string[]): string[] {
  const taken = new Set<string>();
  return ids.map((id) => {
    let unique = id;
    for (let n = 2; taken.has(unique); n += 1) unique = `${id}-${n}`;
    taken.add(unique);
    return unique;
  });
}
