import { describe, expect, it } from 'vitest';
import { epochSecondsOf, hookNameOf } from './hook-name.js';

describe('src/engine/hook-name', () => {
  it('names generateName hooks generateName + rev7-phase-unixSeconds, lower-cased (§11 Ex 6 C)', () => {
    expect(hookNameOf('db-migrate-', '3f9a2c1d0e4b', 'PreSync', 1700000000)).toBe(
      'db-migrate-3f9a2c1-presync-1700000000',
    );
  });

  it('lower-cases the revision and phase (spec §5.1 example)', () => {
    expect(hookNameOf('migrate-', 'FooBarBaz', 'PostSync', 5)).toBe('migrate-foobarb-postsync-5');
  });

  it('keeps a revision shorter than 8 characters whole', () => {
    expect(hookNameOf('x-', 'HEAD', 'SyncFail', 1)).toBe('x-head-syncfail-1');
    expect(hookNameOf('x-', '1234567', 'Sync', 1)).toBe('x-1234567-sync-1');
  });

  it('turns characters a name cannot hold into - (a chart version with build metadata, multi-source revisions)', () => {
    expect(hookNameOf('x-', '1.2+b7', 'Sync', 1)).toBe('x-1.2-b7-sync-1');
    expect(hookNameOf('x-', '1.2.0;3f9a2c1d0e', 'PreSync', 1)).toBe('x-1.2.0-3-presync-1');
  });

  it('reads startedAt as UTC epoch seconds and rejects what is not a time', () => {
    expect(epochSecondsOf('2023-11-14T22:13:20Z')).toBe(1700000000);
    expect(epochSecondsOf('2023-11-14T22:13:20.999Z')).toBe(1700000000);
    expect(() => epochSecondsOf('yesterday')).toThrow(RangeError);
  });
});
