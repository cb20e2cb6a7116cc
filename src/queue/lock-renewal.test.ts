import { describe, expect, it } from 'vitest';
import { lockRenewTimeFor } from './lock-renewal.js';

describe('lockRenewTimeFor', () => {
  it('renews every tenth of the lock: 3 s of the default 30 s, 300 ms of the e2e stack’s 3 s', () => {
    expect(lockRenewTimeFor(30_000)).toBe(3000);
    expect(lockRenewTimeFor(3000)).toBe(300);
  });

  it('never renews more often than every 50 ms, nor less often than BullMQ’s default (half the lock)', () => {
    expect(lockRenewTimeFor(200)).toBe(50);
    expect(lockRenewTimeFor(60)).toBe(30);
  });
});
