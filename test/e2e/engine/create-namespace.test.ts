import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

const configMap = () => ({ ...obj('v1', 'ConfigMap', 'web'), data: { a: '1' } });

describe('the Namespace CreateNamespace=true creates is not tracked (spec §3.1 step 5)', () => {
  it('carries no tracking label, so a later sync with prune but without the option neither prunes it nor what is in it', async () => {
    const namespace = `created-ns-${++n}`;
    const request = { namespace, application: namespace };
    const created = await syncObjects(h, sourced(configMap()), {
      ...request,
      operation: { syncOptions: ['CreateNamespace=true'] },
    });
    expect(created.state.phase).toBe('Succeeded');
    expect(live(h, 'v1', 'Namespace', namespace, '')?.metadata.labels ?? {}).not.toHaveProperty(
      'app.kubernetes.io/instance',
    );

    const pruned = await syncObjects(h, sourced(configMap()), { ...request, operation: { prune: true } });

    expect(pruned.state.phase).toBe('Succeeded');
    expect(pruned.state.syncResult.resources.map((r) => [r.kind, r.status])).toEqual([
      ['ConfigMap', 'Synced'],
    ]);
    expect(live(h, 'v1', 'Namespace', namespace, '')?.metadata.deletionTimestamp).toBeUndefined();
    expect(live(h, 'v1', 'ConfigMap', 'web', namespace)).toBeDefined();
  });
});
