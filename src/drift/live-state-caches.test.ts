import { describe, expect, it, vi } from 'vitest';
import type { Application, KubeObject } from '../domain/index.js';
import type { ObjectChange } from '../engine/index.js';
import { createDriftDetector } from './drift-detector.js';
import { createLiveStateCaches, type WatchedCluster } from './live-state-caches.js';

function app(name: string): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '', path: name },
    destination: { namespace: name },
    syncPolicy: { automated: {} },
    finalizers: [],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: 'test',
  };
}

function configMap(name: string, owner?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'ns',
      ...(owner
        ? { annotations: { 'argocd.argoproj.io/tracking-id': `${owner}:/ConfigMap:ns/${name}` } }
        : {}),
    },
  };
}

/** A watched cluster whose changes the test emits. */
function watchedCluster() {
  const listeners = new Set<(change: ObjectChange & { previous?: KubeObject }) => void>();
  const cluster: WatchedCluster = {
    listKinds: async () => [],
    list: async () => [],
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (change: ObjectChange & { previous?: KubeObject }) => {
    for (const listener of listeners) listener(change);
  };
  return { cluster, emit };
}

function setup() {
  const apps = ['a', 'b', 'c'].map(app);
  const compared: string[] = [];
  const triggers: string[] = [];
  const detector = createDriftDetector({
    applications: () => apps,
    compare: async (a) => {
      compared.push(a.name);
      return [];
    },
    onAction: async () => undefined,
    onChecked: (a, _result, trigger) => void triggers.push(`${a.name}:${trigger}`),
  });
  const { cluster, emit } = watchedCluster();
  const caches = createLiveStateCaches({
    clusterFor: () => cluster,
    check: (names) => detector.checkApps(names),
    changeDelayMs: 5,
  });
  for (const a of apps) caches.watchChangesOf(a);
  return { compared, triggers, emit, caches, detector };
}

describe('createLiveStateCaches (change-driven drift checks)', () => {
  it('when an object of app a changes, then only a is compared, once per window', async () => {
    const { compared, triggers, emit, caches } = setup();

    emit({ type: 'MODIFIED', object: configMap('one', 'a') });
    emit({ type: 'MODIFIED', object: configMap('two', 'a') });
    await vi.waitFor(() => expect(compared).toEqual(['a']));
    await new Promise((resolve) => setTimeout(resolve, 30));

    expect(compared).toEqual(['a']);
    expect(triggers).toEqual(['a:change']);
    caches.stop();
  });

  it('when objects of several apps change in one window, then each of them is compared once and the others not', async () => {
    const { compared, emit, caches } = setup();

    emit({ type: 'MODIFIED', object: configMap('one', 'a') });
    emit({ type: 'ADDED', object: configMap('two', 'c') });
    emit({ type: 'MODIFIED', object: configMap('three', 'a') });
    await vi.waitFor(() => expect(compared.sort()).toEqual(['a', 'c']));
    await new Promise((resolve) => setTimeout(resolve, 30));

    expect(compared.sort()).toEqual(['a', 'c']);
    caches.stop();
  });

  it('when an object no app tracks changes, then nothing is compared; a deleted tracked object, or one whose marker was removed, counts', async () => {
    const { compared, emit, caches } = setup();

    emit({ type: 'MODIFIED', object: configMap('stray') });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(compared).toEqual([]);

    emit({ type: 'DELETED', object: configMap('gone', 'b') });
    await vi.waitFor(() => expect(compared).toEqual(['b']));
    emit({ type: 'MODIFIED', object: configMap('untracked'), previous: configMap('untracked', 'c') });
    await vi.waitFor(() => expect(compared).toEqual(['b', 'c']));
    caches.stop();
  });

  it('after stop(), changes ask for nothing', async () => {
    const { compared, emit, caches } = setup();
    caches.stop();

    emit({ type: 'MODIFIED', object: configMap('one', 'a') });
    await new Promise((resolve) => setTimeout(resolve, 30));

    expect(compared).toEqual([]);
  });
});
