import { describe, expect, it } from 'vitest';
import type { OperationState, ResourceResult } from '../../domain/index.js';
import { TimeSlice } from '../time-slice.js';
import { copyOperationState } from './state-copy.js';

const result = (i: number): ResourceResult => ({
  group: '',
  version: 'v1',
  kind: i === 0 ? 'Job' : 'ConfigMap',
  namespace: 'app',
  name: `o-${i}`,
  syncPhase: 'Sync',
  wave: 0,
  status: 'Synced',
  message: `applied "${i}"`,
  ...(i === 0 ? { hookType: 'PreSync', hookPhase: 'Succeeded', logTail: ['migrated'] } : {}),
});

const state = (n: number): OperationState => ({
  operation: { prune: true, dryRun: false, syncOptions: ['CreateNamespace=true'], resources: [] },
  phase: 'Running',
  message: 'waiting',
  startedAt: new Date().toISOString(),
  syncResult: { revision: 'abc', resources: Array.from({ length: n }, (_, i) => result(i)), sources: [] },
});

describe('copyOperationState', () => {
  it('when a state of 1,000 results is copied in slices, then the copy is equal and shares nothing with it', async () => {
    const original = state(1000);
    const copy = await copyOperationState(original, new TimeSlice(0));

    expect(copy).toEqual(structuredClone(original));
    copy.syncResult.resources[0]!.logTail!.push('changed');
    copy.syncResult.resources[1]!.message = 'changed';
    copy.operation.syncOptions.push('Prune=false');
    expect(original.syncResult.resources[0]!.logTail).toEqual(['migrated']);
    expect(original.syncResult.resources[1]!.message).toBe('applied "1"');
    expect(original.operation.syncOptions).toEqual(['CreateNamespace=true']);
  });
});
