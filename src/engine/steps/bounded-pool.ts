/**
 * mapBounded — run `fn` over `items` with at most `limit` calls in flight, results in the order of `items`.
 * How the engine applies the tasks of one kind run (gitops-engine applies a run's tasks concurrently; a bounded
 * pool keeps a 10,000-object wave from opening 10,000 requests at once). `fn` should not throw (a rejection
 * rejects the whole map, as Promise.all does, after the calls already started have settled their slot).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
