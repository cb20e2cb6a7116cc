/**
 * mapBounded — run `fn` over `items` with at most `limit` calls in flight, results in the order of `items`.
 * How the engine applies the tasks of one kind run (gitops-engine applies a run's tasks concurrently; a bounded
 * pool keeps a 10,000-object wave from opening 10,000 requests at once). `fn` should not throw (a rejection
 * rejects the whole map, as Promise.all does, after the calls already started have settled their slot).
 * Once `signal` aborts (a cancelled operation), no new call starts: the items not started have no result
 * (`undefined` at their index) — callers that pass a signal must expect holes.
 */
export function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]>;
export function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal: AbortSignal | undefined,
): Promise<(R | undefined)[]>;
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<(R | undefined)[]> {
  const results = new Array<R | undefined>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
