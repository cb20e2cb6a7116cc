import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Simulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import type { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import type { SignedSlackClient } from '../../fakes/slack-client.js';
import { installApplicationCrd } from '../../support/application-crd.js';
import { type ServeEnv, startServeEnv } from '../support/serve-env.js';

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

let env: ServeEnv;
let sim: Simulator;
let slack: FakeSlackApi;
let bot: SignedSlackClient;
let cluster: ServeEnv['cluster'];

beforeAll(async () => {
  // No Application CRD in the cluster yet: the cluster source is empty, start-up must not fail.
  env = await startServeEnv({
    secret: SECRET,
    files: {
      'manifests/shop/settings.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { mode: demo }\n',
      'applications/shop.yaml': fileApplication('shop'),
      'wavesync.yaml': SETTINGS,
    },
  });
  ({ sim, slack, bot, cluster } = env);
});

afterAll(() => env?.close());

async function command(text: string) {
  const delivery = await bot.sendCommand({ text, userId: 'U0PAT', channelId: CHANNEL });
  expect(delivery.status).toBe(200);
  return delivery;
}

describe('Applications from the cluster (cluster: source)', () => {
  it('an Application object applied after start-up becomes known when someone names it, and syncs', async () => {
    expect(String((await command('shop --dry-run')).json?.text ?? '')).not.toContain('No application named');

    await installApplicationCrd(cluster, sim);
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
