/**
 * A Degraded Deployment's failure notice carries its failing Pod's log tail, as a failed hook's does: over the
 * simulator, a Deployment rolled out twice (two ReplicaSets; the current one's Pod crash-loops, the old one's was
 * replaced) — the notice names the current ReplicaSet's crash-looping Pod and shows the last lines of its previous
 * (crashed) instance, with the Application's Secret value hidden; the failure notifier runs on the real Redis and
 * posts to the fake Slack.
 */
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { Application, KubeObject, SyncEvent, TaskRef } from '../../../src/domain/index.js';
import {
  createApprovalStore,
  createAuditLog,
  createFailureNotifier,
  redisNotificationMarks,
} from '../../../src/environments/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { degradedLogTailOf } from '../../../src/main/approval-wiring.js';
import { pickFailingPod } from '../../../src/resource-actions/failing-pod.js';
import { createResourceActionCatalog, createResourceViews } from '../../../src/resource-actions/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { createSlackApprovalMessenger } from '../../../src/slack/reporters/slack-approval-messenger.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { runNotifierJob } from '../../support/notifier-job.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
let sim: Simulator;
let cluster: ReturnType<typeof createKubeCluster>;
let slack: FakeSlackApi;
const prefix = uniquePrefix();
const tracking = (kind: string, name: string, group = '') => `guestbook:${group}/${kind}:guestbook/${name}`;

function worker(command: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'worker',
      namespace: 'guestbook',
      annotations: { 'argocd.argoproj.io/tracking-id': tracking('Deployment', 'worker', 'apps') },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'worker' } },
      template: {
        metadata: { labels: { app: 'worker' } },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'busybox',
              env: [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }],
              command: ['sh', '-c', command],
            },
          ],
        },
      },
    },
  };
}

const secret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'db',
    namespace: 'guestbook',
    annotations: { 'argocd.argoproj.io/tracking-id': tracking('Secret', 'db') },
  },
  data: { password: Buffer.from('s3cr3t-pass').toString('base64') },
};

const app: Application = {
  name: 'guestbook',
  namespace: 'argocd',
  project: 'default',
  source: { repoURL: 'https://git.example.com/guestbook.git', path: 'guestbook' },
  destination: { namespace: 'guestbook' },
  finalizers: [],
  labels: { 'wavesync.io/environment': 'production' },
  annotations: {},
  manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'guestbook' } },
  origin: 'guestbook.yaml:1',
};

const podsOfWorker = () =>
  sim.list('v1', 'Pod', 'guestbook').filter((p) => p.metadata.name?.startsWith('worker-'));

beforeAll(async () => {
  sim = await startSimulator({ speed: 50 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'guestbook' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
  for (const obj of [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } }, secret]) {
    await cluster.apply(obj, { dryRun: false, force: true });
  }
  // Revision 1 runs; revision 2 crash-loops (its Pod logs the Secret before giving up).
  await cluster.apply(worker('echo old revision; sleep 3600'), { dryRun: false, force: true });
  await cluster.apply(
    worker('echo starting; echo connecting with $DB_PASSWORD; echo fatal: cannot connect; exit 1'),
    { dryRun: false, force: true },
  );
  const started = Date.now();
  while (!pickFailingPod(podsOfWorker())?.why.includes('CrashLoopBackOff')) {
    if (Date.now() - started > 30_000) throw new Error('the new revision never crash-looped');
    await new Promise((r) => setTimeout(r, 100));
  }
  slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 100 });
}, 60_000);

afterAll(async () => {
  await slack?.close();
  await sim?.stop();
  await deleteKeys(redis, prefix);
  await redis.quit();
});

const deployment: TaskRef = {
  group: 'apps',
  kind: 'Deployment',
  namespace: 'guestbook',
  name: 'worker',
  isHook: false,
  isPrune: false,
};

describe('a Degraded Deployment notice', () => {
  it("shows the current ReplicaSet's crash-looping Pod's last lines, the Secret hidden", async () => {
    const errors: unknown[] = [];
    const views = createResourceViews({
      clusterFor: () => cluster,
      actions: createResourceActionCatalog({}),
    });
    const notifier = createFailureNotifier({
      marks: redisNotificationMarks(redis, prefix),
      settings: parseSettings(
        'environments:\n  production:\n    notifications: { channel: C0ALERTS }\n',
        path.join('/etc/wavesync', 'wavesync.yaml'),
      ),
      findApplication: (name) => (name === 'guestbook' ? app : undefined),
      store: createApprovalStore(redis, { prefix }),
      audit: createAuditLog(redis, prefix),
      poster: createSlackApprovalMessenger(
        createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 }),
      ),
      onError: (error) => errors.push(error),
      degradedLogTail: degradedLogTailOf(views),
    });
    const at = new Date().toISOString();
    const events: SyncEvent[] = [
      {
        type: 'OperationCompleted',
        at,
        phase: 'Succeeded',
        message: 'successfully synced (all tasks run)',
        durationMs: 10,
        state: {
          operation: { prune: false, dryRun: false, syncOptions: [] },
          phase: 'Succeeded',
          message: 'successfully synced (all tasks run)',
          syncResult: { revision: '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192', resources: [] },
          startedAt: at,
        },
      },
      {
        type: 'HealthAssessed',
        at,
        health: { status: 'Degraded' },
        afterMs: 5,
        unhealthy: [
          {
            task: deployment,
            health: { status: 'Degraded', message: 'Deployment "worker" exceeded its progress deadline' },
          },
        ],
      },
    ];
    await runNotifierJob(notifier, 'guestbook', 'job-degraded', events);
    expect(errors).toEqual([]);

    const [alert] = slack.channelMessages('C0ALERTS');
    const text = renderBlocksAsText((alert?.blocks ?? []) as Block[]);
    const failing = pickFailingPod(podsOfWorker());
    expect(failing?.pod.metadata.labels?.['pod-template-hash']).toBeDefined();
    // The Pod of the current (crash-looping) revision, not the old one's.
    expect(text).toMatch(
      // The crashed instance's lines: read as the previous instance once restarted, else (waiting in its back-off)
      // as the container's current log.
      /📜 last lines of Pod\/worker-[\w-]+ \(container main(, previous instance)?; CrashLoopBackOff, \d+ restarts?\)/,
    );
    expect(text).toContain('connecting with ***');
    expect(text).toContain('fatal: cannot connect');
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain('old revision');
  });
});
