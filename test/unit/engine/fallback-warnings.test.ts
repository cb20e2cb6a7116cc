/**
 * Argo CD's silent fallbacks are said in OperationStarted (`fallbacks`, with file and line) for every sync — the
 * Slack thread of `/sync --dry-run` shows them as `wavesync plan` does — together with the warnings found before
 * the engine (RunOperationInput.warnings: the Application's sync options, rendering).
 */
import { describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../../src/domain/index.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { HOOK, obj, sourced, WAVE } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

describe('OperationStarted fallbacks', () => {
  it('names a sync-wave "1.5" (run as wave 0) and a hook type with "did you mean", with file and line, on a dry run', async () => {
    const events: SyncEvent[] = [];
    await runOperation({
      application: 'shop',
      targets: sourced(
        { ...obj('v1', 'ConfigMap', 'half', { [WAVE]: '1.5' }), data: { a: '1' } },
        { ...obj('v1', 'ConfigMap', 'typo', { [HOOK]: 'PreSynk' }), data: { a: '1' } },
      ),
      namespace: 'app',
      revision: '3f9a2c1d0e',
      operation: { prune: false, dryRun: true, syncOptions: [] },
      cluster: new FakeCluster(),
      reporter: { report: async (e) => void events.push(e) },
      warnings: [{ file: 'apps/shop.yaml', line: 7, message: 'unknown sync option "Prune=flase"' }],
      options: { healthTimeoutMs: 0, pollIntervalMs: 50 },
    });

    const started = events.find((e) => e.type === 'OperationStarted');
    const fallbacks = started?.type === 'OperationStarted' ? (started.fallbacks ?? []) : [];
    expect(fallbacks).toEqual([
      'unknown sync option "Prune=flase" (apps/shop.yaml:7)',
      'ConfigMap/half: annotation argocd.argoproj.io/sync-wave: "1.5" is not an integer (Go strconv.Atoi syntax); Argo CD falls back to 0 (test.yaml:1)',
      'ConfigMap/typo: argocd.argoproj.io/hook: unknown hook type "PreSynk" (did you mean PreSync?); Argo CD ignores it, so this hook is neither applied nor pruned (test.yaml:2)',
    ]);
  });
});
