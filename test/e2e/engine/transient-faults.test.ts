/**
 * Transient API trouble does not fail a sync: the simulator answers a share of all requests (discovery, reads,
 * applies, watches) with 500/502/503/504, 429 + Retry-After or a connection reset, and the engine, over the real
 * client-node adapter (GETs retried per request, src/kube/retrying-http.ts) wrapped in withRetries (writes,
 * src/kube/retrying-cluster.ts), still ends Succeeded with the same
 * waves and actions as an undisturbed run (before the retry layers, 20% failed it in discovery every time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRetries } from '../../../src/kube/retrying-cluster.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';
import { actions, type Harness, startHarness, syncFolder, waves } from './support/engine-harness.js';

let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  h.sim.faults.rate = 0;
  await h.stop();
});

const FOLDER = sharedFixturesDir('argocd-example-apps/sync-waves');
/** Fast backoff for the test: the retries are what is tested, not their pacing (Retry-After is capped too). */
const POLICY = { baseMs: 20, maxMs: 300, attempts: 8 };

async function run(rate: number, retries: boolean) {
  const namespace = `faults-${++n}`;
  h.sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const cluster = retries ? withRetries(h.cluster, POLICY) : h.cluster;
  const before = h.sim.faults.injected;
  h.sim.faults.rate = rate;
  try {
    const result = await syncFolder({ ...h, cluster }, FOLDER, { namespace }).catch((error: unknown) => ({
      error,
    }));
    return { result, injected: h.sim.faults.injected - before };
  } finally {
    h.sim.faults.rate = 0;
  }
}

describe('transient Kubernetes API errors are retried on every request', { timeout: 120_000 }, () => {
  it.each([0.05, 0.2])(
    'with %s of all requests failing transiently the sync Succeeds as undisturbed',
    async (rate) => {
      const undisturbed = await run(0, true);
      const { result, injected } = await run(rate, true);

      expect('state' in undisturbed.result && undisturbed.result.state.phase).toBe('Succeeded');
      expect(injected).toBeGreaterThan(0);
      if (!('state' in result)) throw result.error;
      expect(result.state.phase).toBe('Succeeded');
      if (!('state' in undisturbed.result)) return;
      expect(waves(result.events)).toEqual(waves(undisturbed.result.events));
      expect(actions(result.events).map(withoutHookSuffix)).toEqual(
        actions(undisturbed.result.events).map(withoutHookSuffix),
      );
    },
  );
});

/** Hook Jobs with generateName differ per run. */
function withoutHookSuffix(action: string): string {
  return action.replace(/-presync-\d+$/, '-presync');
}
