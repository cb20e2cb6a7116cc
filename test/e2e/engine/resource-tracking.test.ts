/**
 * Resource tracking through the simulator (spec §7, Argo CD 3.x): the tracking-id annotation by default, what
 * another Application tracks is neither pruned nor taken over without a warning, and objects an earlier wavesync
 * labelled are still updated and pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKING_LABEL } from '../../../src/domain/index.js';
import { computeApplicationDiff } from '../../../src/engine/index.js';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { actions, type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

const ID = 'argocd.argoproj.io/tracking-id';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

const configMap = (
  name: string,
  data: Record<string, string>,
  meta: Partial<ReturnType<typeof obj>['metadata']> = {},
) => {
  const cm = { ...obj('v1', 'ConfigMap', name), data };
  cm.metadata = { ...cm.metadata, ...meta };
  return cm;
};

describe('beside an Argo CD that manages other Applications on the cluster', () => {
  it('an object another Application tracks is never pruned; one the manifests share is synced only after the shared-resource warning, and FailOnSharedResource=true refuses it', async () => {
    const ns = h.freshNamespace('beside-argo');
    const argo = (name: string, id: string) =>
      h.sim.put(configMap(name, { owner: 'argo' }, { namespace: ns, annotations: { [ID]: id } }));
    argo('theirs', `argo-app:/ConfigMap:${ns}/theirs`);
    argo('shared', `argo-app:/ConfigMap:${ns}/shared`);
    // A tracking id copied with a manifest: it names this Application but another object.
    argo('copied', `mine:/ConfigMap:${ns}/original`);
    const manifests = sourced(configMap('ours', { a: '1' }), configMap('shared', { owner: 'mine' }));
    const request = { application: 'mine', namespace: ns };
    const warning = 'ConfigMap/shared is part of applications mine and argo-app';

    const diff = await computeApplicationDiff({
      cluster: h.cluster,
      application: 'mine',
      targets: manifests,
      namespace: ns,
      revision: 'r',
      operation: { prune: true, dryRun: true, syncOptions: [] },
    });
    expect(diff.warnings).toContain(warning);
    expect(diff.counts).toMatchObject({ create: 1, change: 1, prune: 0 });

    const refused = await syncObjects(h, manifests, {
      ...request,
      operation: { prune: true, syncOptions: ['FailOnSharedResource=true'] },
    });
    expect(refused.state.phase).toBe('Failed');
    expect(refused.state.message).toBe(`Shared resource found: ${warning}`);
    expect(actions(refused.events)).toEqual([]);
    expect(live(h, 'v1', 'ConfigMap', 'shared', ns)?.metadata.annotations?.[ID]).toBe(
      `argo-app:/ConfigMap:${ns}/shared`,
    );
    expect(live(h, 'v1', 'ConfigMap', 'ours', ns)).toBeUndefined();

    const synced = await syncObjects(h, manifests, { ...request, operation: { prune: true } });
    expect(synced.state.phase).toBe('Succeeded');
    const started = synced.events.find((e) => e.type === 'OperationStarted');
    expect(started?.type === 'OperationStarted' && started.warnings).toEqual([warning]);
    expect(actions(synced.events).sort()).toEqual(['apply ConfigMap/ours', 'apply ConfigMap/shared']);
    expect(live(h, 'v1', 'ConfigMap', 'theirs', ns)?.metadata.deletionTimestamp).toBeUndefined();
    expect(live(h, 'v1', 'ConfigMap', 'copied', ns)).toBeDefined();
    expect(live(h, 'v1', 'ConfigMap', 'shared', ns)?.metadata.annotations?.[ID]).toBe(
      `mine:/ConfigMap:${ns}/shared`,
    );
  });
});

describe('objects an earlier wavesync tracked with the app.kubernetes.io/instance label', () => {
  it('are updated (then carry the tracking id instead of the label) and pruned when gone from the manifests', async () => {
    const ns = h.freshNamespace('legacy');
    // As earlier wavesync applied them: server-side apply by the `wavesync` manager, with the label.
    for (const name of ['kept', 'gone']) {
      await h.cluster.apply(
        configMap(name, { v: '1' }, { namespace: ns, labels: { [TRACKING_LABEL]: ns } }),
        {
          dryRun: false,
          force: true,
        },
      );
    }

    // The diff does not count moving from the label to the annotation as a change (Argo CD's Normalize).
    const diff = await computeApplicationDiff({
      cluster: h.cluster,
      application: ns,
      targets: sourced(configMap('kept', { v: '1' })),
      namespace: ns,
      revision: 'r',
      operation: { prune: true, dryRun: true, syncOptions: [] },
    });
    expect(diff.resources.map((r) => `${r.action} ${r.name}`)).toEqual(['prune gone', 'unchanged kept']);

    const run = await syncObjects(h, sourced(configMap('kept', { v: '2' })), {
      namespace: ns,
      operation: { prune: true },
    });

    expect(run.state.phase).toBe('Succeeded');
    expect(actions(run.events)).toEqual(['prune ConfigMap/gone', 'apply ConfigMap/kept']);
    const kept = live(h, 'v1', 'ConfigMap', 'kept', ns);
    expect(kept?.data).toEqual({ v: '2' });
    expect(kept?.metadata.annotations?.[ID]).toBe(`${ns}:/ConfigMap:${ns}/kept`);
    expect(kept?.metadata.labels ?? {}).not.toHaveProperty(TRACKING_LABEL);
    await h.sim.waitFor(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'gone' },
      (o) => o === undefined,
    );
  });
});

describe('the tracking method', () => {
  it("writes Argo CD's tracking id on core, grouped and cluster-scoped objects by default, and only the label with label tracking", async () => {
    const ns = h.freshNamespace('method');
    const role = { ...obj('rbac.authorization.k8s.io/v1', 'ClusterRole', `${ns}-reader`), rules: [] };
    const annotated = await syncObjects(h, sourced(configMap('c', { a: '1' }), role), { namespace: ns });
    expect(annotated.state.phase).toBe('Succeeded');
    expect(live(h, 'v1', 'ConfigMap', 'c', ns)?.metadata.annotations?.[ID]).toBe(`${ns}:/ConfigMap:${ns}/c`);
    const liveRole = live(h, 'rbac.authorization.k8s.io/v1', 'ClusterRole', `${ns}-reader`, '');
    expect(liveRole?.metadata.annotations?.[ID]).toBe(
      `${ns}:rbac.authorization.k8s.io/ClusterRole:${ns}/${ns}-reader`,
    );

    const labelled = await syncObjects(h, sourced(configMap('l', { a: '1' })), {
      application: 'by-label',
      namespace: ns,
      tracking: { method: 'label', labelKey: TRACKING_LABEL },
    });
    expect(labelled.state.phase).toBe('Succeeded');
    const l = live(h, 'v1', 'ConfigMap', 'l', ns);
    expect(l?.metadata.labels?.[TRACKING_LABEL]).toBe('by-label');
    expect(l?.metadata.annotations ?? {}).not.toHaveProperty(ID);
  });
});
