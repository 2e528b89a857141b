import type { MapperContext } from "./mapper-context.ts";
import type { FileChange } from "./tool-output.ts";

/**
 * The files a turn's tool calls changed, each reported once as `file.changed`. It keeps the last
 * change reported for each path in the current turn: repeated edits of a file are one
 * `file.changed`, but a file edited and then deleted reports both.
 */
export class TurnFileChanges {
  readonly #context: MapperContext;
  readonly #changedThisTurn = new Map<string, string>();

  constructor(context: MapperContext) {
    this.#context = context;
  }

  /** A main turn begins: what earlier turns changed is news again. */
  turnBegun(): void {
    this.#changedThisTurn.clear();
  }

  /** `file.changed` for each path whose change this turn is new; the first change of a path in one call wins. */
  report(changes: readonly FileChange[]): void {
    const seenInCall = new Set<string>();
    for (const change of changes) {
      const path = this.#context.relative(change.path);
      if (seenInCall.has(path)) continue;
      seenInCall.add(path);
      if (this.#changedThisTurn.get(path) === change.change) continue;
      // An added file edited again in the same turn is still added, as far as the turn goes.
      if (this.#changedThisTurn.get(path) === "added" && change.change === "modified") continue;
      this.#changedThisTurn.set(path, change.change);
      this.#context.sink.append("file.changed", { path, change: change.change });
    }
  }
}
