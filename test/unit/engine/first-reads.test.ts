import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import type { ObjectChange, WatchTarget } from '../../../src/engine/cluster.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

/** A FakeCluster that records the lists asked (`<kind>/<namespace>`) and the collections watched. */
class RecordingCluster extends FakeCluster {
  readonly lists: string[] = [];
  readonly watched: WatchTarget[] = [];

  /** @param tellsVersion  whether a list tells its resourceVersion (the API server's answer; a cache's does not) */
  private readonly tellsVersion: boolean;

  constructor(tellsVersion: boolean) {
    super();
    this.tellsVersion = tellsVersion;
  }

  override async list(query: Parameters<FakeCluster['list']>[0] & { listedAt?(version: string): void }) {
    // Each list's version: its place in the order asked.
    const version = String(this.lists.push(`${query.kind}/${query.namespace}`));
    const objects = await super.list(query);
    if (this.tellsVersion) query.listedAt?.(version);
    return objects;
  }

  override watch(targets: readonly WatchTarget[], onChange: (change: ObjectChange) => void) {
    this.watched.push(...targets);
    return super.watch(targets, onChange);
  }
}

async function sync(cluster: FakeCluster, targets: KubeObject[]) {
  return runOperation({
    application: 'app',
    targets: sourced(...targets),
    namespace: 'team',
    revision: 'r1',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster,
    reporter: { report: async () => {} },
    options: { healthTimeoutMs: 0 },
  });
}

describe('the first reads of a sync', () => {
  it("takes the targets' collections from their kinds' lists in all namespaces: no list of their own, watched from that list's version", async () => {
    const cluster = new RecordingCluster(true);
    await cluster.apply(obj('v1', 'Namespace', 'team'), { dryRun: false });
    const live = { ...obj('v1', 'ConfigMap', 'settings'), data: { a: '1' } };
    await cluster.apply({ ...live, metadata: { ...live.metadata, namespace: 'team' } }, { dryRun: false });
    await cluster.apply(
      { ...obj('v1', 'ConfigMap', 'other'), metadata: { name: 'other', namespace: 'elsewhere' } },
      {
        dryRun: false,
      },
    );

    // Replace=true: replaced when the pass saw the live object, created when it did not.
    const replace = { 'argocd.argoproj.io/sync-options': 'Replace=true' };
    const target = obj('v1', 'ConfigMap', 'settings');
    const state = await sync(cluster, [
      { ...target, metadata: { ...target.metadata, annotations: replace }, data: { a: '2' } },
      obj('v1', 'Namespace', 'extra'),
    ]);

    expect(state.phase).toBe('Succeeded');
    // One list per kind, all namespaces: the tracked objects' and the collections' (ConfigMaps in team, Namespaces).
    expect(cluster.lists.filter((l) => !l.endsWith('/'))).toEqual([]);
    expect(cluster.lists.filter((l) => l === 'ConfigMap/')).toHaveLength(1);
    expect(cluster.lists.filter((l) => l === 'Namespace/')).toHaveLength(1);
    // The live object came from that list: the task replaced it, it did not create it.
    expect(state.syncResult.resources.find((r) => r.name === 'settings')?.message).toMatch(/replaced/);
    const version = (kind: string) => String(cluster.lists.indexOf(`${kind}/`) + 1);
    expect(cluster.watched).toContainEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'team',
      resourceVersion: version('ConfigMap'),
    });
    expect(cluster.watched).toContainEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      resourceVersion: version('Namespace'),
    });
  });

  it("reads each target's collection on its own when the lists tell no version (a cache's index), once its kind's list is in", async () => {
    const cluster = new RecordingCluster(false);
    const live = { ...obj('v1', 'ConfigMap', 'settings'), data: { a: '1' } };
    await cluster.apply({ ...live, metadata: { ...live.metadata, namespace: 'team' } }, { dryRun: false });

    const state = await sync(cluster, [{ ...obj('v1', 'ConfigMap', 'settings'), data: { a: '2' } }]);

    expect(state.phase).toBe('Succeeded');
    expect(cluster.lists.filter((l) => l === 'ConfigMap/team')).toHaveLength(1);
    expect(cluster.lists.indexOf('ConfigMap/team')).toBeGreaterThan(cluster.lists.indexOf('ConfigMap/'));
    expect(cluster.watched).toContainEqual({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team' });
  });

  it('reads a cluster-scoped kind as the cluster-wide collection; a kind not served still fails the pass', async () => {
    const cluster = new RecordingCluster(false);

    const state = await sync(cluster, [
      obj('v1', 'Namespace', 'extra'),
      obj('example.com/v1', 'Widget', 'w'),
      obj('v1', 'ConfigMap', 'settings'),
    ]);

    // The Widget's kind is not served: the pass refuses the sync, as it did before reading anything early.
    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('one or more synchronization tasks are not valid');
    // Namespaces are read cluster-wide (never as a collection in the destination namespace).
    expect(cluster.lists).not.toContain('Namespace/team');
    expect(cluster.lists).toContain('ConfigMap/team');
    expect(cluster.log.filter((w) => w.verb === 'apply')).toHaveLength(0);
  });
});
