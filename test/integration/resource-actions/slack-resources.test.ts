/**
 * `/sync resources` and resource actions through the real Bolt app (fake Slack API) over the simulator: the tree
 * puts the Degraded Deployment first, each line with its health message and a restart button; a click restarts
 * the Deployment (server-side apply), is posted in the channel and audited; bad requests are told to the user only.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import type { AuditEntry } from '../../../src/environments/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createResourceActionCatalog, createResourceViews } from '../../../src/resource-actions/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { RESOURCE_ACTION_ID } from '../../../src/slack/messages/resource-tree-blocks.js';
import { CHANNEL, type Harness, startHarness } from '../../fakes/slack-app-harness.js';

let sim: Simulator;
let h: Harness;
const audited: AuditEntry[] = [];

function deployment(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'guestbook',
      annotations: { 'argocd.argoproj.io/tracking-id': `guestbook:apps/Deployment:guestbook/${name}` },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx', command: ['sh', '-c', 'sleep 3600'] }] },
      },
    },
  };
}

const ref = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'guestbook', name });

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'guestbook' }));
  const cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
  await cluster.apply(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } },
    { dryRun: false, force: true },
  );
  for (const name of ['web', 'api']) await cluster.apply(deployment(name), { dryRun: false, force: true });
  for (const name of ['web', 'api']) {
    await sim.waitFor(
      ref(name),
      (o) => (o?.status as { availableReplicas?: number })?.availableReplicas === 1,
      20_000,
    );
  }
  sim.setStatus(ref('api'), {
    conditions: [
      {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'ReplicaSet "api-1" has timed out progressing.',
      },
    ],
  });
  const resourceViews = createResourceViews({
    clusterFor: () => cluster,
    actions: createResourceActionCatalog({}),
  });
  h = await startHarness(
    {},
    undefined,
    {},
    {
      resourceViews,
      actionAudit: {
        append: async (entry) => {
          audited.push(entry);
          return `${audited.length}-0`;
        },
      },
    },
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
  await sim?.stop();
});

async function sync(text: string) {
  const id = `r${Math.random()}`;
  const res = await h.slack.sendCommand({ text, responseUrl: h.fake.responseUrl(id) });
  expect(res.status).toBe(200);
  return {
    ack: res.json,
    reply: async () => (await h.fake.waitFor(() => h.fake.responseUrlPosts(id)[0])).body,
  };
}

const render = (body: Record<string, unknown> | undefined) =>
  renderBlocksAsText((body?.blocks ?? []) as Block[]);

describe('/sync resources and resource actions', () => {
  it('shows the tree with the Degraded Deployment first, its message, and a restart button per Deployment', async () => {
    const { ack, reply } = await sync('resources guestbook');
    expect(ack).toBeUndefined();
    const body = await reply();
    expect(body.response_type).toBe('ephemeral');
    const text = render(body);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^📦 Resources of guestbook: \d+ objects — 1 Degraded/);
    expect(text).toContain('💔 Deployment/api · Degraded — Deployment "api" exceeded its progress deadline');
    expect(text.indexOf('Deployment/api')).toBeLessThan(text.indexOf('Deployment/web'));
    expect(text).toMatch(/└ 💚 ReplicaSet\/web-\w+ · Healthy/);
    const buttons = (body.blocks as Block[]).flatMap((b) => (b.type === 'actions' ? b.elements : []));
    expect(buttons.map((b) => b.action_id)).toEqual([RESOURCE_ACTION_ID, RESOURCE_ACTION_ID]);
  });

  it('a restart click applies the restart, posts it in the channel and audits who, what and the result', async () => {
    const { reply } = await sync('resources guestbook');
    const body = await reply();
    const button = (body.blocks as Block[])
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .find((b) => JSON.parse(b.value ?? '{}').target === 'guestbook/Deployment/api');
    const responseUrl = h.fake.responseUrl('click');
    const res = await h.slack.sendBlockAction({
      actionId: RESOURCE_ACTION_ID,
      value: button?.value ?? '',
      userId: 'U0ONCALL',
      channelId: CHANNEL,
      messageTs: '1.000001',
      responseUrl,
    });
    expect(res.status).toBe(200);
    const posted = (await h.fake.waitFor(() => h.fake.responseUrlPosts('click')[0])).body;
    expect(posted.response_type).toBe('in_channel');
    expect(render(posted)).toBe(
      '⚙️ @U0ONCALL ran restart on Deployment/api of guestbook: patched Deployment/api',
    );
    const live = sim.get(ref('api'));
    const template = (
      (live as KubeObject).spec as { template: { metadata: { annotations?: Record<string, string> } } }
    ).template;
    expect(template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']).toMatch(/Z$/);
    expect(audited).toContainEqual(
      expect.objectContaining({
        type: 'resource-action',
        application: 'guestbook',
        userId: 'U0ONCALL',
        channel: CHANNEL,
        resourceAction: 'restart guestbook/Deployment/api',
        phase: 'Succeeded',
        reason: 'patched Deployment/api',
      }),
    );
  });

  it('an action the resource does not offer is told to the user only, audited as failed, and nothing is written', async () => {
    const before = sim.get(ref('web'))?.metadata.generation;
    const { reply } = await sync('action guestbook scale Deployment/web --param replicas=3');
    const body = await reply();
    expect(body.response_type).toBe('ephemeral');
    expect(render(body)).toBe(
      '⚠️ scale Deployment/web replicas=3 on guestbook failed: Deployment/web offers no action scale (it offers restart)',
    );
    expect(sim.get(ref('web'))?.metadata.generation).toBe(before);
    expect(audited.at(-1)).toMatchObject({
      phase: 'Failed',
      resourceAction: 'scale Deployment/web replicas=3',
    });
    const usage = await sync('action guestbook restart');
    expect(render(usage.ack)).toContain('Usage: /sync action <app> <action> <Kind/name>');
  });
});
