import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

/**
 * A FakeCluster whose listKinds (the start of the tracked objects' listing) answers only once a list of the
 * targets' own collection has been asked for, or after `patienceMs`; records the lists in the order asked.
 */
class GatedCluster extends FakeCluster {
  readonly lists: string[] = [];
  kindsAnsweredAt: number | undefined;
  private opened: (() => void) | undefined;
  private readonly gate = new Promise<void>((resolve) => {
    this.opened = resolve;
  });

  private readonly collection: string;
  private readonly patienceMs: number;

  constructor(collection: string, patienceMs: number) {
    super();
    this.collection = collection;
    this.patienceMs = patienceMs;
  }

  override async listKinds() {
    await Promise.race([this.gate, new Promise((resolve) => setTimeout(resolve, this.patienceMs))]);
    this.kindsAnsweredAt = this.lists.length;
    return super.listKinds();
  }

  override async list(query: {
    apiVersion: string;
    kind: string;
    namespace: string;
    labelSelector?: string;
  }) {
    const name = `${query.kind}/${query.namespace}`;
    this.lists.push(name);
    if (name === this.collection) this.opened?.();
    return super.list(query);
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
  it("reads the targets' collections while the tracked objects are being listed, not after", async () => {
    const cluster = new GatedCluster('ConfigMap/team', 5_000);
    const live = { ...obj('v1', 'ConfigMap', 'settings'), data: { a: '1' } };
    await cluster.apply({ ...live, metadata: { ...live.metadata, namespace: 'team' } }, { dryRun: false });
    const started = Date.now();

    const state = await sync(cluster, [{ ...obj('v1', 'ConfigMap', 'settings'), data: { a: '2' } }]);

    expect(state.phase).toBe('Succeeded');
    // The collection was asked for before the kinds were answered: the gate opened at once, not after 5 s.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(cluster.lists.indexOf('ConfigMap/team')).toBeLessThan(cluster.kindsAnsweredAt ?? -1);
    // Read once: the pass's own lookup of the task's live object took it from the live cache.
    expect(cluster.lists.filter((l) => l === 'ConfigMap/team')).toHaveLength(1);
  });

  it('reads a cluster-scoped kind as the cluster-wide collection; a kind not served still fails the pass', async () => {
    const cluster = new GatedCluster('none', 0);

    const state = await sync(cluster, [
      obj('v1', 'Namespace', 'extra'),
      obj('example.com/v1', 'Widget', 'w'),
      obj('v1', 'ConfigMap', 'settings'),
    ]);

    // The Widget's kind is not served: the pass refuses the sync, as it did before reading anything early.
    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('one or more synchronization tasks are not valid');
    // Namespaces are read cluster-wide (never as a collection in the destination namespace), before the tracked
    // objects' own listing has begun.
    expect(cluster.lists).not.toContain('Namespace/team');
    expect(cluster.lists.slice(0, 2)).toEqual(['Namespace/', 'ConfigMap/team']);
    expect(cluster.log.filter((w) => w.verb === 'apply')).toHaveLength(0);
  });
});
