/**
 * Serialises version work per project within this process: a restore and the versions taken around it
 * (or an agent run's "before" version) never interleave, so each sees the files the other left.
 */
const tails = new Map<string, Promise<unknown>>();

export function withProjectLock<T>(projectId: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(projectId) ?? Promise.resolve();
  const result = previous.then(work, work);
  const tail = result.catch(() => {});
  tails.set(projectId, tail);
  void tail.then(() => {
    if (tails.get(projectId) === tail) tails.delete(projectId);
  });
  return result;
}

/** Runs `work` on every item, at most `limit` at a time (S3 is slow one by one; hundreds at once is rude). */
export async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
