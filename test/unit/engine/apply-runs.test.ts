import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

/** A FakeCluster whose applies take a few ms each and that records each apply's start and end. */
class TimedCluster extends FakeCluster {
  inFlight = 0;
  mostInFlight = 0;
  readonly spans: { kind: string; name: string; dryRun: boolean; start: number; end: number }[] = [];
  private clock = 0;

  override async apply(o: KubeObject, options: { dryRun: boolean; validate?: boolean; force: boolean }) {
    const span = {
      kind: o.kind,
      name: o.metadata.name ?? '',
      dryRun: options.dryRun,
      start: ++this.clock,
      end: 0,
    };
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1 + (this.clock % 3)));
    this.inFlight--;
    span.end = ++this.clock;
    this.spans.push(span);
    return super.apply(o, options);
  }
}

const configMaps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ ...obj('v1', 'ConfigMap', `cm-${i}`), data: { i: String(i) } }));

async function sync(cluster: TimedCluster, targets: KubeObject[], applyConcurrency?: number) {
  return runOperation({
    application: 'big',
    targets: sourced(...targets),
    namespace: 'app',
    revision: 'r1',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster,
    reporter: { report: async () => {} },
    options: { healthTimeoutMs: 0, ...(applyConcurrency === undefined ? {} : { applyConcurrency }) },
  });
}

describe('applying one wave: kind runs through a bounded pool (gitops-engine runs of one kind)', () => {
  it('keeps at most applyConcurrency applies (and dry runs) in flight, and more than one', async () => {
    const cluster = new TimedCluster();

    const state = await sync(cluster, configMaps(60), 8);

    expect(state.phase).toBe('Succeeded');
    expect(cluster.spans.filter((s) => !s.dryRun)).toHaveLength(60);
    expect(cluster.mostInFlight).toBe(8);
  });

  it('defaults to a pool of 32', async () => {
    const cluster = new TimedCluster();

    await sync(cluster, configMaps(100));

    expect(cluster.mostInFlight).toBe(32);
  });

  it('answers every apply of a kind run before the next kind run starts (Namespace, then ServiceAccounts, then ConfigMaps)', async () => {
    const cluster = new TimedCluster([['v1', 'ServiceAccount']]);
    const namespace = obj('v1', 'Namespace', 'team');
    const accounts = Array.from({ length: 10 }, (_, i) => ({ ...obj('v1', 'ServiceAccount', `sa-${i}`) }));

    const state = await sync(cluster, [...configMaps(20), ...accounts, namespace], 4);

    expect(state.phase).toBe('Succeeded');
    const applies = cluster.spans.filter((s) => !s.dryRun);
    const lastEnd = (kind: string) => Math.max(...applies.filter((s) => s.kind === kind).map((s) => s.end));
    const firstStart = (kind: string) =>
      Math.min(...applies.filter((s) => s.kind === kind).map((s) => s.start));
    expect(firstStart('ServiceAccount')).toBeGreaterThan(lastEnd('Namespace'));
    expect(firstStart('ConfigMap')).toBeGreaterThan(lastEnd('ServiceAccount'));
  });
});
