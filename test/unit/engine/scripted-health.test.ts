/**
 * The engine gated by Lua health scripts (EngineOptions.scriptedHealth, wired to src/health-scripts/): a custom
 * resource that Argo CD's own cert-manager script calls Progressing holds its wave, Degraded fails it with the
 * script's message; a kind with no script keeps the engine's behaviour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, SyncEvent } from '../../../src/domain/index.js';
import { refOf } from '../../../src/engine/cluster.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { createScriptedHealth } from '../../../src/health-scripts/index.js';
import { HOOK, obj, sourced, WAVE } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';

const scriptedHealth = createScriptedHealth({
  builtInDir: sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations'),
});

const certificate = (name: string, annotations: Record<string, string> = {}) =>
  obj('cert-manager.io/v1', 'Certificate', name, annotations, { spec: { secretName: name } });

type Condition = { type: string; status: string; message: string };

/**
 * A cert-manager stand-in: a written Certificate is Issuing at once, then gets `final` conditions once the sync's
 * events have shown the Issuing message (the script was asked while Issuing; the scripts answer from a worker
 * thread, so a fixed delay would race a loaded machine), or after 3 s. Returns the condition types the
 * Certificates had when each ConfigMap was written.
 */
function certManager(cluster: FakeCluster, final: Condition[], events: SyncEvent[]): string[] {
  const seenByConfigMaps: string[] = [];
  cluster.onWrite = (o) => {
    if (o.kind === 'ConfigMap') {
      const certificates = [...cluster.objects.values()].filter((c) => c.kind === 'Certificate');
      const conditions = certificates.flatMap(
        (c) => (c.status as { conditions?: Condition[] } | undefined)?.conditions ?? [],
      );
      seenByConfigMaps.push(conditions.map((c) => `${c.type}=${c.status}`).join(',') || 'none');
    }
    if (o.kind !== 'Certificate') return;
    const ref = refOf(o);
    const issuing = {
      type: 'Issuing',
      status: 'True',
      message: 'Issuing certificate as Secret does not exist',
    };
    const setConditions = (conditions: Condition[]) =>
      cluster.update(ref, (c) => {
        c.status = { conditions };
      });
    setTimeout(() => setConditions([issuing]), 5);
    const startedAt = Date.now();
    const poll = setInterval(() => {
      if (!JSON.stringify(events).includes(issuing.message) && Date.now() - startedAt < 3_000) return;
      clearInterval(poll);
      setConditions(final);
    }, 10);
  };
  return seenByConfigMaps;
}

async function run(cluster: FakeCluster, targets: KubeObject[], events: SyncEvent[], withScripts = true) {
  const state = await runOperation({
    application: 'shop',
    targets: sourced(...targets),
    namespace: 'app',
    revision: '3f9a2c1d0e',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster,
    reporter: { report: async (e) => void events.push(e) },
    options: { healthTimeoutMs: 500, pollIntervalMs: 50, ...(withScripts ? { scriptedHealth } : {}) },
  });
  return { state, events: JSON.stringify(events) };
}

describe('runOperation with Lua health scripts', () => {
  // The scripts run in a worker thread, started at the first run: start it before the timed stand-in runs.
  beforeAll(async () => {
    expect(await scriptedHealth(certificate('warm-up'), { hasOwnCheck: false })).toMatchObject({
      status: 'Progressing',
    });
  });

  it('holds the next wave while the script says Progressing, says why, and goes on once Healthy', async () => {
    const cluster = new FakeCluster([['cert-manager.io/v1', 'Certificate']]);
    const events: SyncEvent[] = [];
    const seen = certManager(
      cluster,
      [{ type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' }],
      events,
    );
    const { state, events: thread } = await run(
      cluster,
      [certificate('web-tls', { [WAVE]: '0' }), obj('v1', 'ConfigMap', 'after-tls', { [WAVE]: '1' })],
      events,
    );
    expect(state.phase).toBe('Succeeded');
    expect(cluster.written()).toEqual(['Certificate/web-tls', 'ConfigMap/after-tls']);
    expect(seen).toEqual(['Ready=True']); // wave 1 waited for the script's Healthy
    expect(thread).toContain('Certificate/web-tls: Issuing certificate as Secret does not exist');
    expect(state.health?.status).toBe('Healthy');
  });

  it("fails the wave when the script says Degraded, with the script's message", async () => {
    const cluster = new FakeCluster([['cert-manager.io/v1', 'Certificate']]);
    const events: SyncEvent[] = [];
    certManager(
      cluster,
      [{ type: 'Ready', status: 'False', message: 'Issuer letsencrypt not found' }],
      events,
    );
    const { state } = await run(
      cluster,
      [certificate('web-tls', { [WAVE]: '0' }), obj('v1', 'ConfigMap', 'after-tls', { [WAVE]: '1' })],
      events,
    );
    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('Issuer letsencrypt not found');
    expect(cluster.written()).toEqual(['Certificate/web-tls']);
    expect(state.health).toEqual({
      status: 'Degraded',
      message: 'Certificate/web-tls: Issuer letsencrypt not found',
    });
  });

  it('a non-Job hook completes when its script says Healthy', async () => {
    const cluster = new FakeCluster([['cert-manager.io/v1', 'Certificate']]);
    const events: SyncEvent[] = [];
    const seen = certManager(cluster, [{ type: 'Ready', status: 'True', message: 'ready' }], events);
    const { state } = await run(
      cluster,
      [certificate('pre-tls', { [HOOK]: 'PreSync' }), obj('v1', 'ConfigMap', 'app-config', {})],
      events,
    );
    expect(state.phase).toBe('Succeeded');
    expect(cluster.written()).toEqual(['Certificate/pre-tls', 'ConfigMap/app-config']);
    expect(seen).toEqual(['Ready=True']);
  });

  it('without scripts a Certificate has no health and does not hold its wave (Argo CD without the script)', async () => {
    const cluster = new FakeCluster([['cert-manager.io/v1', 'Certificate']]);
    const events: SyncEvent[] = [];
    const seen = certManager(cluster, [{ type: 'Ready', status: 'False', message: 'never ready' }], events);
    const { state } = await run(
      cluster,
      [certificate('web-tls', { [WAVE]: '0' }), obj('v1', 'ConfigMap', 'after-tls', { [WAVE]: '1' })],
      events,
      false,
    );
    expect(state.phase).toBe('Succeeded');
    expect(cluster.written()).toEqual(['Certificate/web-tls', 'ConfigMap/after-tls']);
    expect(seen[0]).not.toContain('Ready'); // written before the Certificate was judged at all
  });
});
