import { type KubernetesObject, Watch } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../index.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 60 });

interface Seen {
  type: string;
  name?: string;
  rv?: string;
  object: KubeObject;
}

/** Start a client-node Watch and collect its events until `until` returns true or the stream ends. */
async function collect(
  path: string,
  query: Record<string, string | number | boolean>,
  until: (seen: Seen[]) => boolean,
  timeoutMs = 5000,
) {
  const seen: Seen[] = [];
  let controller: AbortController | undefined;
  const done = new Promise<{ seen: Seen[]; err: unknown }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`watch timed out: ${JSON.stringify(seen.map((s) => [s.type, s.name]))}`)),
      timeoutMs,
    );
    new Watch(cluster.api.kc)
      .watch(
        path,
        query,
        (type, object: KubeObject) => {
          seen.push({ type, name: object.metadata?.name, rv: object.metadata?.resourceVersion, object });
          if (until(seen)) {
            clearTimeout(timer);
            controller?.abort();
            resolve({ seen, err: null });
          }
        },
        (err) => {
          clearTimeout(timer);
          resolve({ seen, err });
        },
      )
      .then((c) => {
        controller = c;
      }, reject);
  });
  return done;
}

const cm = (name: string, data: Record<string, string> = {}): KubernetesObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', labels: { w: 'yes' } },
    data,
  }) as KubernetesObject;

describe('watch', () => {
  it('streams ADDED, MODIFIED and DELETED after a list resourceVersion', async () => {
    const list = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/configmaps`).then(
      (r) => r.json() as Promise<{ metadata: { resourceVersion: string } }>,
    );
    const watching = collect(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: list.metadata.resourceVersion, labelSelector: 'w=yes' },
      (s) => s.some((e) => e.type === 'DELETED'),
    );
    await new Promise((r) => setTimeout(r, 100));
    await cluster.api.objects.create(cm('w1'));
    await cluster.api.objects.replace({ ...cm('w1', { a: '1' }) });
    await cluster.api.objects.create({ ...cm('other'), metadata: { name: 'other', namespace: 'default' } });
    await cluster.api.objects.delete(cm('w1'));
    const { seen } = await watching;
    expect(seen.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'w1'],
      ['MODIFIED', 'w1'],
      ['DELETED', 'w1'],
    ]);
    expect(Number(seen[2]?.rv)).toBeGreaterThan(Number(seen[1]?.rv));
  });

  it('without a resourceVersion starts with ADDED for every existing object', async () => {
    await cluster.api.objects.create(cm('w-existing'));
    const { seen } = await collect(
      '/api/v1/namespaces/default/configmaps',
      { fieldSelector: 'metadata.name=w-existing' },
      (s) => s.length >= 1,
    );
    expect(seen.map((e) => [e.type, e.name])).toEqual([['ADDED', 'w-existing']]);
  });

  it('replays history from an old resourceVersion, and answers 410 Gone as an ERROR event once compacted', async () => {
    const start = (await cluster.api.objects.create(cm('w-replay'))).metadata?.resourceVersion ?? '0';
    await cluster.api.objects.replace(cm('w-replay', { b: '2' }));
    const replay = await collect(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: start, fieldSelector: 'metadata.name=w-replay' },
      (s) => s.length >= 1,
    );
    expect(replay.seen.map((e) => e.type)).toEqual(['MODIFIED']);
    cluster.sim.compact();
    const gone = await collect(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: start },
      (s) => s.length >= 1,
    );
    expect(gone.seen[0]?.type).toBe('ERROR');
    expect(gone.seen[0]?.object).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Expired',
      code: 410,
      message: `too old resource version: ${start}`,
    });
  });

  it('sends BOOKMARK events when allowed, and ends the stream after timeoutSeconds', async () => {
    const { seen } = await collect(
      '/api/v1/namespaces/default/configmaps',
      { allowWatchBookmarks: true, resourceVersion: String(1e9) },
      (s) => s.some((e) => e.type === 'BOOKMARK'),
      5000,
    );
    const bookmark = seen.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(Number(bookmark?.rv)).toBeGreaterThan(1000);
    const started = Date.now();
    const ended = await collect(
      '/api/v1/namespaces/default/secrets',
      { timeoutSeconds: 1 },
      () => false,
      5000,
    ).catch((e) => e);
    expect(ended).toMatchObject({ err: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
