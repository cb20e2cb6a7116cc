import { describe, expect, it } from 'vitest';
import type { KubeObject, ResourceTracking } from '../domain/index.js';
import type { Cluster } from './cluster.js';
import {
  formatTrackingId,
  isTrackedBy,
  listTrackedLiveObjects,
  parseTrackingId,
  sharedResourceMessage,
  trackingOwnerOf,
  withTracking,
  withTrackingMoveIgnored,
} from './tracked-objects.js';

const ID = 'argocd.argoproj.io/tracking-id';
const INSTANCE = 'app.kubernetes.io/instance';
const label: ResourceTracking = { method: 'label', labelKey: INSTANCE };
const both: ResourceTracking = { method: 'annotation+label', labelKey: INSTANCE };

function object(
  apiVersion: string,
  kind: string,
  name: string,
  meta: Partial<KubeObject['metadata']> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name, ...meta } };
}

const annotated = (o: KubeObject, id: string): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [ID]: id } },
});

describe('the tracking id (Argo CD resource_tracking.go format)', () => {
  it('is <app>:<group>/<kind>:<namespace>/<name>, the core group empty', () => {
    const deployment = object('apps/v1', 'Deployment', 'web', { namespace: 'shop' });
    const service = object('v1', 'Service', 'web', { namespace: 'shop' });
    expect(withTracking(deployment, 'guestbook', 'default').metadata.annotations?.[ID]).toBe(
      'guestbook:apps/Deployment:shop/web',
    );
    expect(withTracking(service, 'guestbook', 'default').metadata.annotations?.[ID]).toBe(
      'guestbook:/Service:shop/web',
    );
  });

  it('names the destination namespace for an object without one, cluster-scoped ones included', () => {
    const role = object('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader');
    expect(withTracking(role, 'guestbook', 'shop').metadata.annotations?.[ID]).toBe(
      'guestbook:rbac.authorization.k8s.io/ClusterRole:shop/reader',
    );
    expect(withTracking(role, 'guestbook', '').metadata.annotations?.[ID]).toBe(
      'guestbook:rbac.authorization.k8s.io/ClusterRole:/reader',
    );
  });

  it('parses back, and refuses what is not in the format (it tracks nothing then)', () => {
    const id = { application: 'a', group: '', kind: 'ConfigMap', namespace: 'ns', name: 'c' };
    expect(parseTrackingId(formatTrackingId(id))).toEqual(id);
    for (const bad of ['a', 'a:/ConfigMap', 'a:ConfigMap:ns/c', 'a:/ConfigMap:c', 'a:x/y/ConfigMap:ns/c'])
      expect(parseTrackingId(bad), bad).toBeUndefined();
  });

  it('is not written on CustomResourceDefinitions (Argo CD never tracks them), nor is the input changed', () => {
    const crd = object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com');
    expect(withTracking(crd, 'guestbook', 'shop', both)).toBe(crd);
    const cm = object('v1', 'ConfigMap', 'c', { labels: { team: 'a' } });
    withTracking(cm, 'guestbook', 'shop', both);
    expect(cm.metadata).toEqual({ name: 'c', labels: { team: 'a' } });
  });
});

describe('the tracking methods', () => {
  const cm = object('v1', 'ConfigMap', 'c', { namespace: 'ns', labels: { team: 'a' } });

  it('label: only the label, value the Application name, under the configured key', () => {
    const tracked = withTracking(cm, 'guestbook', 'ns', {
      method: 'label',
      labelKey: 'argocd.argoproj.io/instance',
    });
    expect(tracked.metadata.labels).toEqual({ team: 'a', 'argocd.argoproj.io/instance': 'guestbook' });
    expect(tracked.metadata.annotations).toBeUndefined();
  });

  it('annotation+label: both, the label cut to 63 characters ending alphanumeric', () => {
    const long = `${'a'.repeat(62)}-b`;
    const tracked = withTracking(cm, long, 'ns', both);
    expect(tracked.metadata.annotations?.[ID]).toBe(`${long}:/ConfigMap:ns/c`);
    expect(tracked.metadata.labels?.[INSTANCE]).toBe('a'.repeat(62));
  });

  it('writes the installation ID next to the annotation when one is configured', () => {
    const tracked = withTracking(cm, 'guestbook', 'ns', {
      method: 'annotation',
      labelKey: INSTANCE,
      installationID: 'east',
    });
    expect(tracked.metadata.annotations?.['argocd.argoproj.io/installation-id']).toBe('east');
  });
});

describe('whose an object is', () => {
  const cm = object('v1', 'ConfigMap', 'c', { namespace: 'ns' });

  it('is the Application its tracking id names, when the id names the object itself', () => {
    expect(isTrackedBy(annotated(cm, 'mine:/ConfigMap:ns/c'), 'mine')).toBe(true);
    expect(isTrackedBy(annotated(cm, 'theirs:/ConfigMap:ns/c'), 'mine')).toBe(false);
    // A tracking id copied from another object (Argo CD isSelfReferencedObj): not this one's.
    expect(isTrackedBy(annotated(cm, 'mine:/ConfigMap:ns/other'), 'mine')).toBe(false);
    expect(isTrackedBy(annotated(cm, 'mine:apps/ConfigMap:ns/c'), 'mine')).toBe(false);
  });

  it('a cluster-scoped object matches whatever namespace its id names', () => {
    const role = object('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader');
    expect(
      isTrackedBy(annotated(role, 'mine:rbac.authorization.k8s.io/ClusterRole:shop/reader'), 'mine'),
    ).toBe(true);
  });

  it('reads the label an earlier wavesync wrote when there is no tracking id; the id wins over it', () => {
    const legacy = { ...cm, metadata: { ...cm.metadata, labels: { [INSTANCE]: 'mine' } } };
    expect(isTrackedBy(legacy, 'mine')).toBe(true);
    expect(trackingOwnerOf(legacy)).toMatchObject({ application: 'mine', via: 'label' });
    expect(isTrackedBy(annotated(legacy, 'theirs:/ConfigMap:ns/c'), 'mine')).toBe(false);
  });

  it('with label tracking, the label wins and the annotation is the fallback', () => {
    const labelled = { ...cm, metadata: { ...cm.metadata, labels: { [INSTANCE]: 'mine' } } };
    expect(isTrackedBy(annotated(labelled, 'theirs:/ConfigMap:ns/c'), 'mine', label)).toBe(true);
    expect(isTrackedBy(annotated(cm, 'mine:/ConfigMap:ns/c'), 'mine', label)).toBe(true);
  });

  it("another installation's tracking id is never this one's", () => {
    const other = annotated(cm, 'mine:/ConfigMap:ns/c');
    other.metadata.annotations!['argocd.argoproj.io/installation-id'] = 'west';
    expect(isTrackedBy(other, 'mine')).toBe(false);
    expect(
      isTrackedBy(other, 'mine', { method: 'annotation', labelKey: INSTANCE, installationID: 'west' }),
    ).toBe(true);
  });
});

describe('the shared-resource warning', () => {
  const target = object('v1', 'ConfigMap', 'c', { namespace: 'ns' });

  it('names both Applications, as Argo CD words it', () => {
    expect(sharedResourceMessage(target, annotated(target, 'theirs:/ConfigMap:ns/c'), 'mine')).toBe(
      'ConfigMap/c is part of applications mine and theirs',
    );
    expect(sharedResourceMessage(target, annotated(target, 'mine:/ConfigMap:ns/c'), 'mine')).toBeUndefined();
    expect(sharedResourceMessage(target, target, 'mine')).toBeUndefined();
  });

  it('is not given for an instance label the manifest itself carries (a Helm release name)', () => {
    const helm = { ...target, metadata: { ...target.metadata, labels: { [INSTANCE]: 'release' } } };
    expect(sharedResourceMessage(helm, helm, 'mine')).toBeUndefined();
    expect(sharedResourceMessage(target, helm, 'mine')).toBe(
      'ConfigMap/c is part of applications mine and release',
    );
  });

  it('names the installation of a tracking id from another Argo CD installation', () => {
    const live = annotated(target, 'mine:/ConfigMap:ns/c');
    live.metadata.annotations!['argocd.argoproj.io/installation-id'] = 'west';
    expect(sharedResourceMessage(target, live, 'mine')).toBe(
      'ConfigMap/c is part of applications mine and mine (installation west)',
    );
  });
});

describe('the diff while objects move from the label to the annotation (Argo CD Normalize)', () => {
  const desired = annotated(object('v1', 'ConfigMap', 'c', { namespace: 'ns' }), 'mine:/ConfigMap:ns/c');
  const legacy = object('v1', 'ConfigMap', 'c', {
    namespace: 'ns',
    labels: { [INSTANCE]: 'mine', team: 'a' },
  });

  it('gives the labelled live object the desired tracking id and drops the label the desired object lacks', () => {
    const seen = withTrackingMoveIgnored(legacy, desired);
    expect(seen.metadata.annotations).toEqual({ [ID]: 'mine:/ConfigMap:ns/c' });
    expect(seen.metadata.labels).toEqual({ team: 'a' });
    expect(legacy.metadata.labels).toEqual({ [INSTANCE]: 'mine', team: 'a' });
  });

  it('keeps a label the desired object has, and changes nothing with label tracking or without the label', () => {
    const withLabel = { ...desired, metadata: { ...desired.metadata, labels: { [INSTANCE]: 'mine' } } };
    expect(withTrackingMoveIgnored(legacy, withLabel, both).metadata.labels).toEqual({
      [INSTANCE]: 'mine',
      team: 'a',
    });
    expect(withTrackingMoveIgnored(legacy, desired, label)).toBe(legacy);
    const plain = object('v1', 'ConfigMap', 'c', { namespace: 'ns' });
    expect(withTrackingMoveIgnored(plain, desired)).toBe(plain);
  });
});

describe('listTrackedLiveObjects', () => {
  it("lists each kind once without a selector, skips Argo CD's excluded kinds, keeps top-level tracked objects", async () => {
    const listed: string[] = [];
    const objects: Record<string, KubeObject[]> = {
      'v1/ConfigMap': [
        annotated(object('v1', 'ConfigMap', 'mine', { namespace: 'ns' }), 'app:/ConfigMap:ns/mine'),
        annotated(object('v1', 'ConfigMap', 'theirs', { namespace: 'ns' }), 'other:/ConfigMap:ns/theirs'),
        object('v1', 'ConfigMap', 'legacy', { namespace: 'ns', labels: { [INSTANCE]: 'app' } }),
        object('v1', 'ConfigMap', 'untracked', { namespace: 'ns' }),
      ],
      'v1/Pod': [
        object('v1', 'Pod', 'web-1', {
          namespace: 'ns',
          labels: { [INSTANCE]: 'app' },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u' }],
        }),
      ],
    };
    const cluster: Pick<Cluster, 'listKinds' | 'list'> = {
      listKinds: async () =>
        ['v1/ConfigMap', 'v1/Pod', 'v1/Event', 'events.k8s.io/v1/Event', 'coordination.k8s.io/v1/Lease'].map(
          (k) => {
            const kind = k.slice(k.lastIndexOf('/') + 1);
            return { apiVersion: k.slice(0, k.lastIndexOf('/')), kind, namespaced: true };
          },
        ),
      list: async (query) => {
        expect(query.labelSelector).toBeUndefined();
        listed.push(`${query.apiVersion}/${query.kind}`);
        return objects[`${query.apiVersion}/${query.kind}`] ?? [];
      },
    };
    const tracked = await listTrackedLiveObjects(cluster, 'app');
    expect(tracked.map((o) => o.metadata.name)).toEqual(['mine', 'legacy']);
    expect(listed.sort()).toEqual(['v1/ConfigMap', 'v1/Pod']);
  });
});
