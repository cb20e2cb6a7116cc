import { describe, expect, it } from 'vitest';
import { obj, sourced, WAVE } from '../../../test/builders/manifest-builders.js';
import { compareSyncTasks, sortSyncTasks } from './sort-sync-tasks.js';
import { buildSyncTasks } from './sync-tasks.js';

function tasksOf(count: number) {
  const kinds = [
    ['v1', 'ConfigMap'],
    ['apps/v1', 'Deployment'],
    ['example.com/v1', 'Widget'],
    ['v1', 'Service'],
    ['batch/v1', 'Job'],
  ] as const;
  const objects = Array.from({ length: count }, (_, i) => {
    const [apiVersion, kind] = kinds[i % kinds.length]!;
    const hook: Record<string, string> =
      i % 7 === 0 ? { 'argocd.argoproj.io/hook': ['PreSync', 'PostSync', 'SyncFail'][i % 3]! } : {};
    return obj(
      apiVersion,
      kind,
      `n${(i * 7919) % 101}`,
      { [WAVE]: String((i % 5) - 2), ...hook },
      { namespace: `ns${i % 3}` },
    );
  });
  const unique = objects.filter(
    (o, i) =>
      objects.findIndex(
        (p) =>
          p.kind === o.kind &&
          p.metadata.name === o.metadata.name &&
          p.metadata.namespace === o.metadata.namespace,
      ) === i,
  );
  const base = { live: [], namespace: 'app', revision: 'r', startedAt: '2024-01-01T00:00:00Z' };
  return buildSyncTasks({
    ...base,
    targets: sourced(...unique),
    operation: { prune: false, dryRun: false, syncOptions: [] },
  }).tasks;
}

describe('src/engine/sort-sync-tasks', () => {
  it('orders exactly as compareSyncTasks when there is nothing to bubble', () => {
    const tasks = tasksOf(300);
    const shuffled = [...tasks].reverse();

    sortSyncTasks(shuffled);

    expect(shuffled).toEqual([...tasks].sort(compareSyncTasks));
    expect(shuffled.length).toBeGreaterThan(100);
  });

  it('compares phase, then wave, then kind order, then name, then namespace, then group', () => {
    const [a, b] = tasksOf(2);
    if (a === undefined || b === undefined) throw new Error('two tasks expected');

    expect(compareSyncTasks({ ...a, phase: 'PreSync' }, { ...b, phase: 'Sync' })).toBeLessThan(0);
    expect(compareSyncTasks({ ...a, wave: 5 }, { ...a, wave: -5 })).toBeGreaterThan(0);
    expect(compareSyncTasks({ ...a, kind: 'Namespace' }, { ...a, kind: 'Widget', name: 'a' })).toBeLessThan(
      0,
    );
    expect(compareSyncTasks({ ...a, name: 'b' }, { ...a, name: 'a' })).toBeGreaterThan(0);
    expect(compareSyncTasks({ ...a, namespace: 'x' }, { ...a, namespace: 'y' })).toBeLessThan(0);
    expect(compareSyncTasks({ ...a, group: 'b' }, { ...a, group: 'a' })).toBeGreaterThan(0);
    expect(compareSyncTasks(a, { ...a })).toBe(0);
  });
});
