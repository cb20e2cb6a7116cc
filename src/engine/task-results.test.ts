import { describe, expect, it } from 'vitest';
import { newOperationState } from './sync-context.js';
import type { SyncTask } from './sync-task.js';
import { recordResult, resultOf, taskStateOf } from './task-results.js';

function task(name: string, phase: SyncTask['phase'] = 'Sync'): SyncTask {
  return { group: '', version: 'v1', kind: 'ConfigMap', namespace: 'app', name, phase, wave: 0 } as SyncTask;
}

describe('src/engine/task-results', () => {
  it('finds each task’s own result among many, per phase', () => {
    const state = newOperationState(
      { prune: false, dryRun: false, syncOptions: [] },
      'rev',
      '2026-01-01T00:00:00Z',
    );
    for (let i = 0; i < 50; i++) recordResult(state, task(`cm-${i}`), { status: 'Synced', message: `m${i}` });
    recordResult(state, task('cm-7', 'PostSync'), { status: 'Synced', message: 'post' });

    expect(resultOf(state, task('cm-7'))?.message).toBe('m7');
    expect(resultOf(state, task('cm-7', 'PostSync'))?.message).toBe('post');
    expect(resultOf(state, task('cm-50'))).toBeUndefined();
  });

  it('updates in place and sees results appended after a lookup, also in a cloned state', () => {
    const state = newOperationState(
      { prune: false, dryRun: false, syncOptions: [] },
      'rev',
      '2026-01-01T00:00:00Z',
    );
    recordResult(state, task('a'), { status: 'Synced', message: 'first' });
    expect(taskStateOf(state, task('b'))).toBe('pending');
    recordResult(state, task('b'), { status: 'Synced', hookPhase: 'Running', message: '' });
    recordResult(state, task('a'), { message: 'second' });

    const clone = structuredClone(state);
    recordResult(clone, task('c'), { status: 'Synced', hookPhase: 'Succeeded', message: '' });

    expect(state.syncResult.resources.map((r) => [r.name, r.message])).toEqual([
      ['a', 'second'],
      ['b', ''],
    ]);
    expect(taskStateOf(state, task('b'))).toBe('running');
    expect(resultOf(state, task('c'))).toBeUndefined();
    expect(taskStateOf(clone, task('c'))).toBe('completed');
    expect(resultOf(clone, task('a'))?.message).toBe('second');
  });
});
