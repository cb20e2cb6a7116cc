import { describe, expect, it } from 'vitest';
import type { OperationState } from '../../domain/index.js';
import { parseSyncRequest, type SyncRequest } from '../sync-request.js';
import { historyEntry } from './history-entry.js';

describe('historyEntry', () => {
  it("records a multi-source sync's sources and each source's revision, and a rollback request carries them back", () => {
    const sources = [
      { repoURL: 'https://charts.example', chart: 'redis', targetRevision: '17.x' },
      { repoURL: 'https://git.example/values.git', ref: 'values' },
    ];
    const revision = `17.3.2;${'a'.repeat(40)}`;
    const finished = new Date();
    const state: OperationState = {
      operation: { prune: false, dryRun: false, syncOptions: [] },
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      syncResult: { revision, resources: [], source: sources[0]!, sources },
      startedAt: finished.toISOString(),
      finishedAt: finished.toISOString(),
    };
    const request: SyncRequest = {
      application: 'web',
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U1', userName: 'ana' },
      requestKey: 'k1',
      target: { channel: 'C1', threadTs: '1.000001' },
    };

    const entry = historyEntry({
      jobId: '1',
      request,
      state,
      phase: 'Succeeded',
      message: state.message,
      startedAt: undefined,
      finishedAt: finished,
    });

    expect(entry).toMatchObject({ revision, source: sources[0], sources });
    const rollback = parseSyncRequest({
      ...request,
      operation: {
        revision: entry.revision,
        prune: false,
        dryRun: false,
        syncOptions: [],
        sources: entry.sources,
      },
      rollback: { id: 4, revision: entry.revision },
    });
    expect(rollback.operation?.sources).toEqual(sources);
  });
});
