/**
 * Issue 14: a Pod that can never start fails the sync in seconds, named; the plan warns first; a wave says what
 * it waits for. Simulator through the real client-node adapter.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, SyncEvent } from '../../../src/domain/index.js';
import { obj, sourced, WAVE } from '../../builders/manifest-builders.js';
import {
  actions,
  type Harness,
  live,
  startHarness,
  syncFolder,
  syncObjects,
} from './support/engine-harness.js';

const examples = path.resolve(import.meta.dirname, '../../../examples');
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

function withPodSpec(o: KubeObject, podSpec: Record<string, unknown>, replicas = 1): KubeObject {
  const labels = { app: o.metadata.name ?? '' };
  const template = { metadata: { labels }, spec: podSpec };
  const extra = o.kind === 'StatefulSet' ? { serviceName: o.metadata.name } : {};
  return { ...o, spec: { replicas, selector: { matchLabels: labels }, template, ...extra } };
}

function deployment(
  name: string,
  podSpec: Record<string, unknown>,
  annotations: Record<string, string> = {},
) {
  return withPodSpec(obj('apps/v1', 'Deployment', name, annotations), podSpec);
}

const container = (extra: Record<string, unknown> = {}) => ({
  name: 'app',
  image: 'alpine:3.20',
  command: ['sh', '-c', 'sleep 3600'],
  ...extra,
});

/** How long the operation ran (OperationCompleted), without the health watch that follows it. */
const operationMs = (events: SyncEvent[]) =>
  events.flatMap((e) => (e.type === 'OperationCompleted' ? [e.durationMs] : []))[0] ?? Number.NaN;

const waitingEvents = (events: SyncEvent[]) =>
  events.flatMap((e) => (e.type === 'WaveWaiting' ? [e.waiting.map((w) => w.reason)] : []));

describe('a Pod that reads an object this sync creates only later fails the wave within 15 s, named', () => {
  it('PreSync Job reading a Sync-phase ConfigMap (examples/rails-broken-waves), even with a 60 s start grace', async () => {
    const { state, events } = await syncFolder(h, path.join(examples, 'rails-broken-waves'), {
      application: 'late-hook',
      namespace: 'late-hook',
      operation: { syncOptions: ['CreateNamespace=true'] },
      options: { hookStartGraceMs: 60_000 },
    });

    expect(operationMs(events)).toBeLessThan(15_000);
    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /Pod db-migrate-[a-z0-9]+ \(container migrate\) cannot start: CreateContainerConfigError: configmap "rails-env" not found — this sync creates ConfigMap\/rails-env only later \(Sync wave 0\): make it a PreSync hook in an earlier wave/,
    );
    const started0 = events[0];
    expect(started0?.type === 'OperationStarted' && started0.warnings).toEqual([
      'PreSync Job/db-migrate reads ConfigMap/rails-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave',
    ]);
    expect(live(h, 'v1', 'ConfigMap', 'rails-env', 'late-hook')).toBeUndefined();
  });

  it('a Deployment in wave 0 whose env reads a ConfigMap of wave 1 (a resource the wave waits on)', async () => {
    const namespace = h.freshNamespace('late-res');
    const web = deployment('web', {
      containers: [
        container({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'web-env', key: 'a' } } }] }),
      ],
    });
    const env = { ...obj('v1', 'ConfigMap', 'web-env', { [WAVE]: '1' }), data: { a: '1' } };

    const { state, events } = await syncObjects(h, sourced(web, env), {
      namespace,
      options: { hookStartGraceMs: 60_000 },
    });

    expect(operationMs(events)).toBeLessThan(15_000);
    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /Pod web-[a-z0-9-]+ \(container app\) cannot start: CreateContainerConfigError: configmap "web-env" not found — this sync creates ConfigMap\/web-env only later \(Sync wave 1\): give it sync-wave 0 or lower/,
    );
    expect(actions(events)).toEqual(['apply Deployment/web']);
  });

  it('a volume of a ConfigMap created later: FailedMount, named with the container that mounts it', async () => {
    const namespace = h.freshNamespace('late-vol');
    const web = deployment('web', {
      containers: [container({ volumeMounts: [{ name: 'cfg', mountPath: '/etc/web' }] })],
      volumes: [{ name: 'cfg', configMap: { name: 'web-files' } }],
    });
    const files = { ...obj('v1', 'ConfigMap', 'web-files', { [WAVE]: '1' }), data: { a: '1' } };

    const { state, events } = await syncObjects(h, sourced(web, files), {
      namespace,
      options: { hookStartGraceMs: 60_000 },
    });

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /Pod web-[a-z0-9-]+ \(container app\) cannot start: FailedMount: MountVolume.SetUp failed for volume cfg : configmap "web-files" not found — this sync creates ConfigMap\/web-files only later/,
    );
    expect(operationMs(events)).toBeLessThan(15_000);
  });
});

describe('a Pod that reads an object not in this sync waits the start grace, saying so, then fails naming it', () => {
  it('a StatefulSet in wave 0 whose Pods need a missing Secret', async () => {
    const namespace = h.freshNamespace('missing-secret');
    const db = withPodSpec(obj('apps/v1', 'StatefulSet', 'db'), {
      containers: [container({ envFrom: [{ secretRef: { name: 'db-creds' } }] })],
    });
    const after = obj('v1', 'ConfigMap', 'after-db', { [WAVE]: '1' });

    const { state, events } = await syncObjects(h, sourced(db, after), {
      namespace,
      options: { hookStartGraceMs: 3_000 },
    });

    expect(state.phase).toBe('Failed');
    expect(operationMs(events)).toBeGreaterThanOrEqual(3_000);
    expect(operationMs(events)).toBeLessThan(15_000);
    expect(state.message).toMatch(
      /Pod db-0 \(container app\) cannot start: CreateContainerConfigError: secret "db-creds" not found — Secret\/db-creds is not created by this sync and did not appear within 3s/,
    );
    expect(waitingEvents(events)).toContainEqual([
      'StatefulSet/db: Pod db-0 (container app) waits for Secret/db-creds (not in this sync; fails after 3s)',
    ]);
    expect(live(h, 'v1', 'ConfigMap', 'after-db', namespace)).toBeUndefined();
  });

  it('a PreSync hook Job whose Pod needs a Secret that is not in this sync: the same wait, then fails naming it', async () => {
    const namespace = h.freshNamespace('hook-secret');
    const migrate = {
      ...obj('batch/v1', 'Job', 'migrate', { 'argocd.argoproj.io/hook': 'PreSync' }),
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [
              container({
                name: 'migrate',
                env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db-pw', key: 'pw' } } }],
              }),
            ],
          },
        },
      },
    };

    const { state, events } = await syncObjects(h, sourced(migrate, obj('v1', 'ConfigMap', 'app')), {
      namespace,
      options: { hookStartGraceMs: 3_000 },
    });

    expect(state.phase).toBe('Failed');
    expect(operationMs(events)).toBeGreaterThanOrEqual(3_000);
    expect(state.message).toMatch(
      /Pod migrate-[a-z0-9]+ \(container migrate\) cannot start: CreateContainerConfigError: secret "db-pw" not found — Secret\/db-pw is not created by this sync and did not appear within 3s/,
    );
    expect(waitingEvents(events).flat()).toContainEqual(
      expect.stringMatching(
        /^Job\/migrate: Pod migrate-[a-z0-9]+ \(container migrate\) waits for Secret\/db-pw \(not in this sync; fails after 3s\)$/,
      ),
    );
  });

  it('starts once the Secret appears within the grace (an operator created it)', async () => {
    const namespace = h.freshNamespace('late-secret');
    const db = withPodSpec(obj('apps/v1', 'StatefulSet', 'db'), {
      containers: [container({ envFrom: [{ secretRef: { name: 'db-creds' } }] })],
    });
    const after = obj('v1', 'ConfigMap', 'after-db', { [WAVE]: '1' });

    const { state } = await syncObjects(h, sourced(db, after), {
      namespace,
      options: { hookStartGraceMs: 20_000 },
      onEvent: (e) => {
        if (e.type === 'WaveWaiting')
          h.sim.put({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'db-creds', namespace },
            data: {},
          });
      },
    });

    expect(state.phase).toBe('Succeeded');
  });

  it('optional references never fail the wave', async () => {
    const namespace = h.freshNamespace('optional');
    const web = deployment('web', {
      containers: [container({ envFrom: [{ configMapRef: { name: 'nowhere', optional: true } }] })],
      volumes: [{ name: 'cfg', secret: { secretName: 'nowhere', optional: true } }],
    });
    const later = obj('v1', 'ConfigMap', 'nowhere', { [WAVE]: '1' });

    const { state } = await syncObjects(h, sourced(web, later), {
      namespace,
      options: { hookStartGraceMs: 1_000 },
    });

    expect(state.phase).toBe('Succeeded');
  });
});

describe('a wave says what it waits for', () => {
  it('Deployment/web 0/1 ready: ImagePullBackOff (image), in WaveWaiting, announced on change only', async () => {
    const namespace = h.freshNamespace('waits');
    const web = deployment('web', {
      containers: [container({ image: 'registry.example/app:does-not-exist' })],
    });
    const after = obj('v1', 'ConfigMap', 'after-web', { [WAVE]: '1' });
    const abort = new AbortController();

    const { events } = await syncObjects(h, sourced(web, after), {
      namespace,
      signal: abort.signal,
      onEvent: (e) => {
        if (e.type === 'WaveWaiting' && e.waiting.some((w) => w.reason.includes('ImagePullBackOff')))
          setTimeout(() => abort.abort(), 3_000);
      },
    });

    const reasons = waitingEvents(events);
    expect(reasons).toContainEqual([
      'Deployment/web 0/1 ready: ImagePullBackOff (registry.example/app:does-not-exist)',
    ]);
    const unique = new Set(reasons.map((r) => JSON.stringify(r)));
    expect(unique.size).toBe(reasons.length);
  });
});

describe('the app-health wait after the operation names what it waits for', () => {
  it('a Deployment of the last wave reading a ConfigMap that does not exist: HealthWaiting and the final health name the ConfigMap', async () => {
    const namespace = 'health-wait-missing-cm';
    const { state, events } = await syncObjects(
      h,
      sourced(
        { ...obj('v1', 'ConfigMap', 'settings'), data: { a: '1' } },
        deployment(
          'web',
          { containers: [container({ envFrom: [{ configMapRef: { name: 'app-env' } }] })] },
          {
            [WAVE]: '1',
          },
        ),
      ),
      { namespace, application: namespace, operation: { syncOptions: ['CreateNamespace=true'] } },
    );

    expect(state.phase).toBe('Succeeded');
    const waiting = events.flatMap((e) => (e.type === 'HealthWaiting' ? e.waiting.map((w) => w.reason) : []));
    expect(waiting.at(-1)).toMatch(
      /^Deployment\/web: Pod web-\S+ \(container app\) cannot start: configmap "app-env" not found$/,
    );
    expect(events.findIndex((e) => e.type === 'HealthWaiting')).toBeGreaterThan(
      events.findIndex((e) => e.type === 'OperationCompleted'),
    );
    expect(state.health?.status).not.toBe('Healthy');
    expect(state.health?.message).toMatch(/configmap "app-env" not found/);
  });
});
