import { describe, expect, it } from 'vitest';
import type { SyncEvent, WaveRef } from '../domain/index.js';
import { formatSyncEventText } from './format-sync-event-text.js';

const at = '2026-01-01T00:00:00Z';
const wave: WaveRef = { phase: 'PreSync', wave: 0, index: 1, total: 1 };

function started(steps: number): SyncEvent {
  return {
    type: 'OperationStarted',
    at,
    application: 'rails',
    revision: 'abc123',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    waves: Array.from({ length: steps }, (_, i) => ({ ...wave, index: i + 1, total: steps, tasks: [] })),
    resumed: false,
  };
}

describe('formatSyncEventText', () => {
  it('counts the planned steps in words that agree with the number', () => {
    expect(formatSyncEventText(started(1))).toBe('Syncing rails at abc123: 1 step');
    expect(formatSyncEventText(started(3))).toBe('Syncing rails at abc123: 3 steps');
  });

  it('says what the app-health wait waits for, one line per resource', () => {
    const line = formatSyncEventText({
      type: 'HealthWaiting',
      at,
      timeoutMs: 300_000,
      waiting: [
        {
          task: {
            group: 'apps',
            kind: 'Deployment',
            namespace: 'shop',
            name: 'web',
            isHook: false,
            isPrune: false,
          },
          reason: 'Deployment/web: Pod web-x (container web) cannot start: configmap "app-env" not found',
        },
      ],
    });
    expect(line).toBe(
      '  … app health (waits up to 300.0s): Deployment/web: Pod web-x (container web) cannot start: configmap "app-env" not found',
    );
  });

  it('puts the duration of a failed step before its message, so the message reads as written', () => {
    const line = formatSyncEventText({
      type: 'WaveCompleted',
      at,
      wave,
      durationMs: 61_700,
      health: [],
      failed: true,
      message: 'Job/db-migrate: Pod db-migrate-x cannot start: configmap "rails-env" not found',
    });
    expect(line).toBe(
      '◼ PreSync wave 0 [step 1/1] failed after 61.7s: Job/db-migrate: Pod db-migrate-x cannot start: configmap "rails-env" not found',
    );
  });

  it('names at most ten objects of a wave, then how many more: 3,000 ConfigMaps are one short line', () => {
    const tasks = Array.from({ length: 3000 }, (_, i) => ({
      kind: 'ConfigMap',
      name: `cm-${i}`,
      namespace: 'big',
      isHook: false,
      isPrune: false,
    }));
    const line = formatSyncEventText({ type: 'WaveStarted', at, wave, tasks } as unknown as SyncEvent);
    expect(line).toBe(
      `▶ PreSync wave 0 [step 1/1]: ${tasks
        .slice(0, 10)
        .map((t) => `ConfigMap/${t.name} (big)`)
        .join(', ')} and 2990 more`,
    );
  });
});
