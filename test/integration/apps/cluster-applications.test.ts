/**
 * Applications read from the cluster (`applications: - cluster: { namespace: argocd }`), as `wavesync serve` runs
 * them (startWavesync): an Application object applied after start-up — what an App of Apps parent does — is not
 * known yet; `/sync <it>` reads the Applications again and syncs it. Signed slash commands through Bolt, the fake
 * Slack Web API, the real queue and worker on Redis, client-node over HTTP to the simulator.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { loadConfig } from '../../../src/config.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { SignedSlackClient } from '../../fakes/slack-client.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const SECRET = 'cluster-apps-secret';
const CHANNEL = 'C0DEPLOYS';

const SETTINGS = `
applications:
  - directory: applications
  - cluster: { namespace: argocd }
defaults:
  healthTimeoutSeconds: 20
  registryRefreshSeconds: 0
`;

const fileApplication = (name: string) =>
  [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    `metadata: { name: ${name}, namespace: argocd }`,
    'spec:',
    '  source: { repoURL: "", path: manifests/shop }',
    `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
    '  syncPolicy: { syncOptions: [CreateNamespace=true] }',
  ].join('\n');

const APPLICATION_CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'applications.argoproj.io' },
  spec: {
    group: 'argoproj.io',
    scope: 'Namespaced',
    names: {
      plural: 'applications',
      singular: 'application',
      kind: 'Application',
      listKind: 'ApplicationList',
    },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

let sim: Simulator;
let slack: FakeSlackApi;
let bot: SignedSlackClient;
let wavesync: RunningWavesync;
let dir: string;
let prefix: string;
const redis = testRedis();
let cluster: ReturnType<typeof createKubeCluster>;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 1000 });
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-cluster-apps-'));
  await mkdir(path.join(dir, 'applications'));
  await mkdir(path.join(dir, 'manifests', 'shop'), { recursive: true });
  await writeFile(
    path.join(dir, 'manifests', 'shop', 'settings.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { mode: demo }\n',
  );
  await writeFile(path.join(dir, 'applications', 'shop.yaml'), fileApplication('shop'));
  await writeFile(path.join(dir, 'wavesync.yaml'), SETTINGS);
  await sim.writeKubeconfig(path.join(dir, 'kubeconfig'));
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cluster = createKubeCluster(kc);
  prefix = uniquePrefix();
  const config = loadConfig({
    REDIS_URL,
    PORT: '0',
    LOG_LEVEL: 'silent',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: path.join(dir, 'kubeconfig'),
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
  });
  // No Application CRD in the cluster yet: the cluster source is empty, start-up must not fail.
  wavesync = await startWavesync('serve', {
    config,
    logger: createLogger({ level: 'silent' }),
    host: '127.0.0.1',
  });
  bot = new SignedSlackClient(`http://127.0.0.1:${wavesync.port}`, SECRET);
});

afterAll(async () => {
  await wavesync?.close({ graceMs: 1000 });
  await slack?.close();
  await sim?.stop();
  await deleteKeys(redis, prefix);
  await redis.quit();
  await rm(dir, { recursive: true, force: true });
});

async function command(text: string) {
  const delivery = await bot.sendCommand({ text, userId: 'U0PAT', channelId: CHANNEL });
  expect(delivery.status).toBe(200);
  return delivery;
}

describe('Applications from the cluster (cluster: source)', () => {
  it('an Application object applied after start-up becomes known when someone names it, and syncs', async () => {
    expect(String((await command('shop --dry-run')).json?.text ?? '')).not.toContain('No application named');

    await cluster.apply(APPLICATION_CRD, { force: true, dryRun: false });
    await sim.waitFor(
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        namespace: '',
        name: 'applications.argoproj.io',
      },
      (o) =>
        (o?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some(
          (c) => c.type === 'Established' && c.status === 'True',
        ) === true,
    );
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } });
    await cluster.apply(parse(fileApplication('child')) as KubeObject, { force: true, dryRun: false });

    const before = slack.channelMessages(CHANNEL).length;
    const accepted = await command('child');
    expect(String(accepted.json?.text ?? '')).not.toContain('No application named');
    await slack.waitFor(
      () =>
        slack
          .channelMessages(CHANNEL)
          .slice(before)
          .find((m) => m.text.includes('child') && m.text.includes('Succeeded')),
      60_000,
    );
    expect(
      sim.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'child', name: 'settings' }),
    ).toBeDefined();
  });
});
