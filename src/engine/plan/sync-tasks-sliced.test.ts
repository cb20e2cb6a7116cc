import { describe, expect, it } from 'vitest';
import { HOOK, obj, sourced, WAVE } from '../../../test/builders/manifest-builders.js';
import { countEventLoopTurns } from '../../../test/support/event-loop-turns.js';
import { type KubeObject, ManifestError, type SyncOperation } from '../../domain/index.js';
import { AbortedError, TimeSlice } from '../time-slice.js';
import { type BuildSyncTasksInput, buildSyncTasks, buildSyncTasksSliced } from './sync-tasks.js';

const OPERATION: SyncOperation = { prune: true, dryRun: false, syncOptions: ['CreateNamespace=true'] };

/** 3,000 objects of three kinds in five waves, a PreSync hook, and 500 live objects no longer in git. */
function input(): BuildSyncTasksInput {
  const targets: KubeObject[] = [];
  for (let i = 0; i < 3000; i++) {
    const kind = ['ConfigMap', 'Secret', 'Service'][i % 3]!;
    targets.push(obj('v1', kind, `o-${i}`, { [WAVE]: String(i % 5) }));
  }
  targets.push(obj('batch/v1', 'Job', 'migrate', { [HOOK]: 'PreSync' }));
  const live = Array.from({ length: 500 }, (_, i) =>
    obj('v1', 'ConfigMap', `gone-${i}`, {}, { namespace: 'app' }),
  );
  return {
    targets: sourced(...targets),
    live,
    namespace: 'app',
    revision: '3f9a2c1d0e4b',
    startedAt: '2023-11-14T22:13:20Z',
    operation: OPERATION,
    lintReferences: true,
  };
}

describe('buildSyncTasksSliced', () => {
  it('when built in time slices, then the plan equals the one built at once, and the event loop ran in between', async () => {
    const turns = countEventLoopTurns();
    // A budget of 0 ms: every yield point of the planner is a pause.
    const sliced = await buildSyncTasksSliced(input(), new TimeSlice(0));
    const turnsCounted = turns.stop();

    expect(sliced).toEqual(buildSyncTasks(input()));
    expect(sliced.tasks).toHaveLength(3000 + 1 + 500 + 1);
    // 3,501 objects through several loops of 256 items each: dozens of event-loop turns, not one.
    expect(turnsCounted).toBeGreaterThan(30);
  });

  it('when two targets are the same object, then it rejects with the ManifestError buildSyncTasks throws', async () => {
    const twice = input();
    twice.targets = sourced(obj('v1', 'ConfigMap', 'same'), obj('v1', 'ConfigMap', 'same'));

    await expect(buildSyncTasksSliced(twice, new TimeSlice(0))).rejects.toThrow(ManifestError);
    await expect(buildSyncTasksSliced(twice)).rejects.toThrow(/duplicate resource ConfigMap\/same/);
  });

  it('when its slice is aborted, then it stops at the next pause with AbortedError', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(buildSyncTasksSliced(input(), new TimeSlice(0, controller.signal))).rejects.toThrow(
      AbortedError,
    );
  });
});
