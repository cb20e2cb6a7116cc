import { describe, expect, it } from 'vitest';
import { SYNC_OPTIONS } from '../../../test/builders/manifest-builders.js';
import type { KubeObject } from '../../domain/index.js';
import type { SyncTask } from '../sync-task.js';
import { reorderPruneWaves } from './prune-waves.js';

function task(
  name: string,
  wave: number,
  prune: boolean,
  annotations: Record<string, string> = {},
): SyncTask {
  const o: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, annotations } };
  return {
    phase: 'Sync',
    wave,
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    namespace: '',
    name,
    targetObj: prune ? undefined : o,
    liveObj: o,
    isHook: false,
    hookTypes: [],
    deletePolicies: [],
    skipDryRun: false,
    source: undefined,
  };
}

describe('src/engine/prune-waves', () => {
  it('swaps prune waves symmetrically and leaves applies alone (TestWaveReorderingOfPruneTasks)', () => {
    const tasks = [
      task('p1', 1, true),
      task('p3a', 3, true),
      task('p3b', 3, true),
      task('p4', 4, true),
      task('p5', 5, true),
      task('a-1', -1, false),
      task('a3', 3, false),
      task('a5', 5, false),
    ];

    reorderPruneWaves(tasks, false);

    expect(tasks.map((t) => `${t.name}:${t.wave}`)).toEqual([
      'p1:5',
      'p3a:4',
      'p3b:4',
      'p4:3',
      'p5:1',
      'a-1:-1',
      'a3:3',
      'a5:5',
    ]);
  });

  it('moves a PruneLast prune to the last Sync wave + 1 after swapping the others', () => {
    const tasks = [
      task('p1', 1, true),
      task('p2', 2, true, { [SYNC_OPTIONS]: 'Validate=false, PruneLast=true' }),
      task('p3', 3, true),
      task('p4', 4, true),
    ];

    reorderPruneWaves(tasks, false);

    expect(tasks.map((t) => `${t.name}:${t.wave}`)).toEqual(['p1:4', 'p2:5', 'p3:2', 'p4:1']);
  });

  it('with the operation PruneLast option moves every prune to max(0, last wave) + 1', () => {
    const tasks = [task('p', -3, true), task('q', -7, true), task('a', -1, false)];

    reorderPruneWaves(tasks, true);

    expect(tasks.map((t) => `${t.name}:${t.wave}`)).toEqual(['p:1', 'q:1', 'a:-1']);
  });

  it('keeps an odd middle wave in place', () => {
    const tasks = [task('a', 0, true), task('b', 1, true), task('c', 2, true)];

    reorderPruneWaves(tasks, false);

    expect(tasks.map((t) => t.wave)).toEqual([2, 1, 0]);
  });
});
