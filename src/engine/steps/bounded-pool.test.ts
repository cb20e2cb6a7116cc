import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded-pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('src/engine/bounded-pool', () => {
  it('keeps at most `limit` calls in flight and answers in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 9, 7], 3, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      for (let i = 0; i < n; i++) await tick();
      inFlight--;
      return n * 10;
    });

    expect(results).toEqual([50, 10, 40, 20, 30, 90, 70]);
    expect(most).toBe(3);
  });

  it('handles no items and a limit larger than the items', async () => {
    expect(await mapBounded([], 8, async () => 1)).toEqual([]);
    expect(await mapBounded(['a', 'b'], 100, async (s, i) => `${s}${i}`)).toEqual(['a0', 'b1']);
  });

  it('starts no new call once its signal aborts, and leaves the items not started without a result', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await mapBounded(
      [1, 2, 3, 4, 5, 6],
      2,
      async (n) => {
        started.push(n);
        if (n === 3) controller.abort('cancelled');
        await tick();
        return n * 10;
      },
      controller.signal,
    );

    expect(started).toEqual([1, 2, 3]);
    expect(results).toEqual([10, 20, 30, undefined, undefined, undefined]);
  });
});
