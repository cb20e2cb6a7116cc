import { describe, expect, it } from 'vitest';
import { HOOK, obj } from '../../../test/builders/manifest-builders.js';
import { syncPhasesOf } from './sync-phases.js';

describe('src/engine/sync-phases', () => {
  it.each([
    [{}, ['Sync']],
    [{ [HOOK]: 'Skip' }, []],
    [{ [HOOK]: 'PreSync' }, ['PreSync']],
    [{ [HOOK]: 'PostSync,PreSync' }, ['PreSync', 'PostSync']],
    [{ [HOOK]: 'Sync,SyncFail' }, ['Sync', 'SyncFail']],
    [{ [HOOK]: 'Skip,PostSync' }, ['PostSync']],
    [{ [HOOK]: 'PostDelete' }, []],
    [{ 'helm.sh/hook': 'pre-install,pre-upgrade' }, ['PreSync']],
    [{ 'helm.sh/hook': 'crd-install' }, ['Sync']],
  ])('annotations %j run in phases %j', (annotations, phases) => {
    expect(syncPhasesOf(obj('batch/v1', 'Job', 'j', annotations))).toEqual(phases);
  });
});
