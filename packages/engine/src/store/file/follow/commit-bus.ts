/** The bus key feed followers listen on: every commit of every run. */
export const FEED_KEY = "*";

/**
 * In-process commit notifications: a writer announces each commit to the followers of the
 * same store right away. Followers in other processes (or other stores) are woken through
 * the hint files instead (see CommitWaker).
 */
export class CommitBus {
  readonly #listeners = new Map<string, Set<() => void>>();

  on(key: string, listener: () => void): () => void {
    let set = this.#listeners.get(key);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(key);
    };
  }

  emit(runId: string): void {
    for (const key of [runId, FEED_KEY]) {
      for (const listener of this.#listeners.get(key) ?? []) listener();
    }
  }
}
