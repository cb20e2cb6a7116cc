import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import { type Cluster, ClusterError } from '../engine/index.js';
import { withRetries } from './retrying-cluster.js';

const cm = (rv?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', ...(rv ? { resourceVersion: rv } : {}) },
});
const transient = (statusCode: number, retryAfterMs?: number) =>
  new ClusterError(`HTTP ${statusCode}`, {
    statusCode,
    transient: true,
    ...(retryAfterMs ? { retryAfterMs } : {}),
  });
const conflict = () =>
  new ClusterError('the object has been modified', { statusCode: 409, reason: 'Conflict', transient: false });

/** A Cluster whose `method` answers from `script` in turn (errors thrown), recording calls. */
function scripted(method: keyof Cluster, script: (unknown | Error)[], live?: KubeObject) {
  const calls: unknown[][] = [];
  const cluster = {
    get: async () => live,
    [method]: async (...args: unknown[]) => {
      calls.push(args);
      const next = script.shift();
      if (next instanceof Error) throw next;
      return next;
    },
  } as unknown as Cluster;
  return { cluster, calls };
}

const noWait = { sleep: async () => undefined, random: () => 0.5 };

describe('withRetries', () => {
  it('retries transient errors with backoff (Retry-After honoured) until an answer', async () => {
    const waits: number[] = [];
    const { cluster, calls } = scripted('list', [transient(503), transient(429, 2000), []]);
    const retrying = withRetries(cluster, { random: () => 0.5, sleep: async (ms) => void waits.push(ms) });

    expect(await retrying.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns' })).toEqual([]);
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([100, 2050]); // full jitter of 200 ms; 2 s Retry-After + jitter
  });

  it('gives up after `attempts` and passes non-transient errors through at once', async () => {
    const many = scripted(
      'get',
      Array.from({ length: 10 }, () => transient(500)),
    );
    await expect(
      withRetries(many.cluster, { ...noWait, attempts: 3 }).get({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'ns',
        name: 'a',
      }),
    ).rejects.toThrow('HTTP 500');
    expect(many.calls).toHaveLength(3);

    const forbidden = scripted('list', [
      new ClusterError('forbidden', { statusCode: 403, transient: false }),
    ]);
    await expect(
      withRetries(forbidden.cluster, noWait).list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns' }),
    ).rejects.toThrow('forbidden');
    expect(forbidden.calls).toHaveLength(1);
  });

  it('with readsRetriedBelow, a read is tried once here (its GETs are retried below), a write still retried', async () => {
    const reads = scripted('get', [transient(503), undefined]);
    const cluster = withRetries(reads.cluster, { ...noWait, readsRetriedBelow: true });
    await expect(
      cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'a' }),
    ).rejects.toThrow('HTTP 503');
    expect(reads.calls).toHaveLength(1);

    const writes = scripted('apply', [transient(503), cm('2')]);
    const retryingWrites = withRetries(writes.cluster, { ...noWait, readsRetriedBelow: true });
    expect(await retryingWrites.apply(cm('1'), { dryRun: false, force: true })).toEqual(cm('2'));
    expect(writes.calls).toHaveLength(2);
  });

  it('re-reads after a 409 on apply and applies again without the stale resourceVersion, a bounded number of times', async () => {
    const ok = scripted('apply', [conflict(), cm('8')], cm('7'));
    expect(await withRetries(ok.cluster, noWait).apply(cm('3'), { dryRun: false, force: true })).toEqual(
      cm('8'),
    );
    expect((ok.calls[1]?.[0] as KubeObject | undefined)?.metadata.resourceVersion).toBeUndefined();

    const stuck = scripted('apply', Array.from({ length: 10 }, conflict), cm('7'));
    await expect(
      withRetries(stuck.cluster, { ...noWait, conflictAttempts: 3 }).apply(cm(), {
        dryRun: false,
        force: true,
      }),
    ).rejects.toThrow('modified');
    expect(stuck.calls).toHaveLength(3);
  });

  it('a replace answered 409 is retried with the live resourceVersion', async () => {
    const { cluster, calls } = scripted('replace', [conflict(), cm('9')], cm('7'));
    await withRetries(cluster, noWait).replace(cm('3'), { dryRun: false });
    expect((calls[1]?.[0] as KubeObject | undefined)?.metadata.resourceVersion).toBe('7');
  });
});
