import { describe, expect, it } from 'vitest';
import { nextRetry, parseRetryDuration, retryLine } from './sync-retry.js';

describe('syncPolicy.retry backoff, as Argo CD NextRetryAt', () => {
  it('reads bare integers as seconds and Go durations', () => {
    expect(parseRetryDuration('5')).toBe(5000);
    expect(parseRetryDuration('3m0s')).toBe(180_000);
    expect(parseRetryDuration('1h30m')).toBe(5_400_000);
    expect(parseRetryDuration('250ms')).toBe(250);
    expect(() => parseRetryDuration('5 minutes')).toThrow('"5 minutes" is not a duration');
  });

  it('waits duration × factor^n for the n-th retry, at most maxDuration; defaults 5 s, ×2, 3 min', () => {
    const strategy = { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '30s' } };
    expect([1, 2, 3, 4, 5].map((a) => nextRetry(strategy, a)?.delayMs)).toEqual([
      5000, 10_000, 20_000, 30_000, 30_000,
    ]);
    expect(nextRetry({ limit: 10 }, 7)?.delayMs).toBe(180_000);
    expect(nextRetry({ limit: 10 }, 1)?.delayMs).toBe(5000);
  });

  it('retries limit times (attempts = limit + 1); 0 or no retry block never; a negative limit without end', () => {
    expect(nextRetry({ limit: 2 }, 1)).toMatchObject({ attempt: 2, attempts: 3 });
    expect(nextRetry({ limit: 2 }, 2)).toMatchObject({ attempt: 3, attempts: 3 });
    expect(nextRetry({ limit: 2 }, 3)).toBeUndefined();
    expect(nextRetry({ limit: 0 }, 1)).toBeUndefined();
    expect(nextRetry({}, 1)).toBeUndefined();
    expect(nextRetry(undefined, 1)).toBeUndefined();
    expect(nextRetry({ limit: -1 }, 40)).toMatchObject({
      attempt: 41,
      attempts: undefined,
      delayMs: 180_000,
    });
  });

  it('says the retry as the thread shows it', () => {
    expect(
      retryLine({ attempt: 2, attempts: 5, delayMs: 20_000 }, 'one or more objects failed to apply'),
    ).toBe('🔁 syncPolicy.retry: attempt 2 of 5 in 20 s: one or more objects failed to apply');
    expect(retryLine({ attempt: 3, attempts: undefined, delayMs: 500 }, 'x')).toBe(
      '🔁 syncPolicy.retry: attempt 3 (no limit) in 500 ms: x',
    );
  });
});
