/**
 * `/sync logs` and `/sync events` over the simulator: the Pods of a crash-looping Deployment, their current and
 * previous instance's log with the Application's Secret value hidden, tailLines honoured; Events of the
 * Application's objects, Warnings first.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createResourceActionCatalog, createResourceViews } from '../../../src/resource-actions/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { CHANNEL, type Harness, startHarness } from '../../fakes/slack-app-harness.js';

let sim: Simulator;
let cluster: ReturnType<typeof createKubeCluster>;
let h: Harness;
const tracking = (kind: string, name: string, group = '') => `guestbook:${group}/${kind}:guestbook/${name}`;

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

const crashing: KubeObject = {
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
            command: ['sh', '-c', 'echo line one; echo connecting with $DB_PASSWORD; echo giving up; exit 1'],
          },
        ],
      },
    },
  },
};

const views = () =>
  createResourceViews({ clusterFor: () => cluster, actions: createResourceActionCatalog({}) });

beforeAll(async () => {
  sim = await startSimulator({ speed: 50 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'guestbook' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
  for (const obj of [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } },
    secret,
    crashing,
  ]) {
    await cluster.apply(obj, { dryRun: false, force: true });
  }
  // Wait for the first restart: the previous instance's log then exists.
  await new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const pod = sim.list('v1', 'Pod', 'guestbook')[0];
      const restarts = (pod?.status as { containerStatuses?: { restartCount: number }[] } | undefined)
        ?.containerStatuses?.[0]?.restartCount;
      if ((restarts ?? 0) >= 1) resolve();
      else if (Date.now() - started > 30_000) reject(new Error('the pod never restarted'));
      else setTimeout(check, 100);
    };
    check();
  });
  h = await startHarness({}, undefined, {}, { resourceViews: views() });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await sim?.stop();
});

describe('logs and events', () => {
  it('gives the Pods of a Deployment, the previous instance with --previous, the Secret value hidden, tail honoured', async () => {
    const previous = await views().logs('guestbook', 'Deployment/worker', { previous: true });
    expect(previous.logs).toHaveLength(1);
    expect(previous.logs[0]?.lines).toEqual(['line one', 'connecting with ***', 'giving up']);
    const tail = await views().logs('guestbook', 'deployment/worker', { previous: true, tail: 1 });
    expect(tail.logs[0]?.lines).toEqual(['giving up']);
    const pod = previous.logs[0]?.pod as string;
    const direct = await cluster.podLogs('guestbook', pod, { tailLines: 10, previous: true });
    expect(direct).toContain('connecting with s3cr3t-pass');
    await expect(views().logs('guestbook', 'Secret/db', {})).rejects.toThrow('Secret/db has no logs');
  });

  it('shares /sync logs as a snippet in a new thread of the channel when the app has no sync thread there, redacted', async () => {
    const id = `r${Math.random()}`;
    const before = h.fake.files().length;
    await h.slack.sendCommand({
      text: 'logs guestbook Deployment/worker --previous --tail 5',
      responseUrl: h.fake.responseUrl(id),
    });
    const told = await h.fake.waitFor(() => h.fake.responseUrlPosts(id)[0]);
    expect(told.body.response_type).toBe('ephemeral');
    expect(renderBlocksAsText((told.body.blocks ?? []) as Block[])).toContain(
      'The logs of Deployment/worker are posted in a new thread in this channel.',
    );
    const file = h.fake.files()[before];
    expect(file).toMatchObject({ channel: CHANNEL, filename: 'guestbook-Deployment-worker-previous.log' });
    expect(file?.content).toMatch(
      /^==> Pod guestbook\/worker-[\w-]+ <==\nline one\nconnecting with \*\*\*\ngiving up\n$/,
    );
    expect(file?.content).not.toContain('s3cr3t');
    const parent = h.fake.message(CHANNEL, file?.threadTs ?? '');
    expect(parent?.text).toBe('📜 logs of guestbook Deployment/worker');
    const comment = h.fake
      .thread(CHANNEL, file?.threadTs ?? '')
      .find((m) => m.text.startsWith('📜 Previous logs'));
    expect(comment?.text).toContain('(1 Pod) for <@');
  });

  it("puts the snippet in the app's latest sync thread in the channel", async () => {
    await h.slack.sendCommand({ text: 'guestbook' });
    let header: { channel: string; threadTs: string } | undefined;
    for (let i = 0; i < 200 && !header; i++) {
      header = (await h.queue.applicationStatus('guestbook'))[0]?.target;
      if (!header) await new Promise((r) => setTimeout(r, 25));
    }
    expect(header?.channel).toBe(CHANNEL);
    const before = h.fake.files().length;
    const id = `r${Math.random()}`;
    await h.slack.sendCommand({
      text: 'logs guestbook Deployment/worker --tail 2',
      responseUrl: h.fake.responseUrl(id),
    });
    const told = await h.fake.waitFor(() => h.fake.responseUrlPosts(id)[0]);
    expect(JSON.stringify(told.body)).toContain('posted in the thread of its latest sync in this channel');
    const file = h.fake.files()[before];
    expect(file).toMatchObject({
      channel: CHANNEL,
      threadTs: header?.threadTs,
      filename: 'guestbook-Deployment-worker.log',
    });
    expect(file?.content.split('\n').filter((l) => l && !l.startsWith('==>')).length).toBeLessThanOrEqual(2);
  });

  it('a refusal of /sync logs stays with the user; nothing is posted', async () => {
    const before = h.fake.channelMessages(CHANNEL).length;
    const refused = await startHarness(
      {},
      undefined,
      {},
      {
        resourceViews: views(),
        approvalFlow: {
          authorize: async () => ({
            allowed: false,
            code: 'not_permitted',
            reason: 'Only @sre may view guestbook.',
          }),
        } as never,
      },
    );
    try {
      const res = await refused.slack.sendCommand({ text: 'logs guestbook Deployment/worker' });
      expect(res.json?.response_type).toBe('ephemeral');
      expect(renderBlocksAsText((res.json?.blocks ?? []) as Block[])).toContain(
        'Only @sre may view guestbook.',
      );
      expect(refused.fake.files()).toHaveLength(0);
      expect(refused.fake.channelMessages(CHANNEL)).toHaveLength(0);
    } finally {
      await refused.close();
    }
    expect(h.fake.channelMessages(CHANNEL)).toHaveLength(before);
  });

  it('answers /sync events in Slack, warnings first', async () => {
    const events = await views().events('guestbook');
    expect(events[0]).toMatchObject({ type: 'Warning', reason: 'BackOff' });
    expect(events.some((e) => e.type === 'Normal' && e.object.startsWith('Pod/worker-'))).toBe(true);
    const eid = `r${Math.random()}`;
    await h.slack.sendCommand({ text: 'events guestbook', responseUrl: h.fake.responseUrl(eid) });
    const text = renderBlocksAsText(
      ((await h.fake.waitFor(() => h.fake.responseUrlPosts(eid)[0])).body.blocks ?? []) as Block[],
    );
    expect(text.split('\n')[1]).toMatch(/^⚠️ .*BackOff Pod\/worker-/);
    const bad = await h.slack.sendCommand({ text: 'logs guestbook --tail lots' });
    expect(renderBlocksAsText((bad.json?.blocks ?? []) as Block[])).toContain(
      '--tail takes a number of lines',
    );
  });
});
