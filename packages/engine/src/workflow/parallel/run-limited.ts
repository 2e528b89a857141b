/**
 * Runs `work` on every item, in order, at most `limit` at a time: the next item starts when
 * one finishes. Resolves when all have finished; if any threw, rejects with the first error
 * once the others are done (none is left running).
 */
export async function runLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await work(items[index] as T, index);
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  const failed = settled.find((result) => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}
