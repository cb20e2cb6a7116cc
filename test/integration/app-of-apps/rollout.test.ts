/**
 * An ApplicationSet's rollout end to end in one process: `wavesync serve` (Bolt bot + BullMQ worker on the real
 * Redis), the Kubernetes API simulator over HTTP and the fake Slack API. A signed `/sync <appset>` rolls out the
 * Applications it generates as its `strategy: RollingSync` says: steps in order, maxUpdate at a time, each step's
 * Applications Healthy before the next, an approval in the thread for a production Application, one thread with a
 * line per step and per Application, and a stop at the first failure.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../../src/demo/demo-scenario.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../../../src/environments/index.js';
import { syncKeys } from '../../../src/queue/store/redis-keys.js';
import { type AcceptedRollout, isAcceptedRollout } from '../../../src/slack/commands/rollout-command.js';
import { rolloutHeaderBlocks } from '../../../src/slack/messages/rollout-blocks.js';
import { HEADER_EVENT_TYPE } from '../../../src/slack/reporters/header-delivery.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { buttonsOf } from '../approvals/approval-flow-env.js';
import { type AppOfAppsEnv, deployment, startAppOfAppsEnv, writeTestSettings } from './app-of-apps-env.js';

const CHANNEL = 'C0ROLLOUT';

/** An ApplicationSet `shop` over local folders; each element: name, stage label, environment, manifest. */
async function writeShop(
  elements: { name: string; stage?: string; environment: string; manifest: string }[],
  steps: string,
): Promise<{ configFile: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-rollout-'));
  await writeTestSettings(dir);
  const list = elements
    .map((e) => `        - { name: ${e.name}, stage: "${e.stage ?? ''}", env: ${e.environment} }`)
    .join('\n');
  await writeFile(
    path.join(dir, 'applications', 'shop.yaml'),
    `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: shop, namespace: argocd }
spec:
  goTemplate: true
  generators:
    - list:
        elements:
${list}
  template:
    metadata:
      name: 'shop-{{.name}}'
      labels:
        wavesync.io/environment: '{{.env}}'
        '{{ if .stage }}stage{{ else }}unstaged{{ end }}': '{{ .stage }}'
    spec:
      source: { repoURL: "", path: 'manifests/{{.name}}' }
      destination: { server: https://kubernetes.default.svc, namespace: 'shop-{{.name}}' }
      syncPolicy: { syncOptions: [CreateNamespace=true] }
  strategy:
    type: RollingSync
    rollingSync:
      steps:
${steps}
`,
  );
  for (const e of elements) {
    await mkdir(path.join(dir, 'manifests', e.name), { recursive: true });
    await writeFile(path.join(dir, 'manifests', e.name, 'manifest.yaml'), e.manifest);
  }
  return {
    configFile: path.join(dir, 'wavesync.yaml'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

const STEPS = `        - matchExpressions: [{ key: stage, operator: In, values: [dev] }]
          maxUpdate: 1
        - matchExpressions: [{ key: stage, operator: In, values: [prod] }]`;

describe('ApplicationSet rollout from /sync <appset>', () => {
  let h: AppOfAppsEnv | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const c of cleanups.splice(0)) await c();
  });

  it('rolls out step by step (maxUpdate 1), asks for approval of the production Application in the thread, skips the unselected one', async () => {
    const fixture = await writeShop(
      [
        { name: 'dev-a', stage: 'dev', environment: 'staging', manifest: deployment('nginx:1.25') },
        { name: 'dev-b', stage: 'dev', environment: 'staging', manifest: deployment('nginx:1.25') },
        { name: 'prod', stage: 'prod', environment: 'production', manifest: deployment('nginx:1.25') },
        { name: 'other', environment: 'staging', manifest: deployment('nginx:1.25') },
      ],
      STEPS,
    );
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });
    const env = h;

    await h.sync('shop', CHANNEL);
    const devA = await h.finished('shop-dev-a', 60_000);
    const devB = await h.finished('shop-dev-b', 60_000);
    // The production Application waits for approval: its request is a message of the rollout's thread.
    const approval = await env.env.slack.waitFor(() => {
      const root = env.env.slack.channelMessages(CHANNEL).find((m) => !m.threadTs);
      const replies = root ? env.env.slack.thread(CHANNEL, root.ts) : [];
      const message = replies.find((m) =>
        buttonsOf(env.env.slack, CHANNEL, m.ts)?.some((b) => b.action_id === APPROVE_ACTION_ID),
      );
      const value = message
        ? buttonsOf(env.env.slack, CHANNEL, message.ts)?.find((b) => b.action_id === APPROVE_ACTION_ID)?.value
        : undefined;
      return message && value ? { ts: message.ts, value } : undefined;
    }, 60_000);
    expect(await h.queue.history('shop-prod')).toEqual([]);
    const approver = new SignedSlackClient(`http://127.0.0.1:${h.serve.port}`, h.env.signingSecret);
    const click = await approver.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: DEMO_USERS.approver.id,
      userName: DEMO_USERS.approver.name,
      messageTs: approval.ts,
      value: approval.value,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    const prod = await h.finished('shop-prod', 60_000);
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('Rollout of shop:')),
      60_000,
    );

    expect([devA, devB, prod].map((e) => [e.application, e.phase, e.health?.status])).toEqual([
      ['shop-dev-a', 'Succeeded', 'Healthy'],
      ['shop-dev-b', 'Succeeded', 'Healthy'],
      ['shop-prod', 'Succeeded', 'Healthy'],
    ]);
    // maxUpdate 1: dev-b started after dev-a ended; prod after both.
    expect(Date.parse(devB.startedAt)).toBeGreaterThanOrEqual(Date.parse(devA.finishedAt));
    expect(Date.parse(prod.startedAt)).toBeGreaterThanOrEqual(Date.parse(devB.finishedAt));
    expect(prod.initiator.userId).toBe(DEMO_USERS.requester.id);
    expect(summary).toBe('✅ Rollout of shop: 3/3 synced and Healthy · in no step: shop-other');
    expect(await h.queue.history('shop-other')).toEqual([]);
    // One thread: the header in the channel, everything else inside it.
    const roots = env.env.slack.channelMessages(CHANNEL).filter((m) => !m.threadTs);
    expect(roots).toHaveLength(1);
    expect(roots[0]!.text).toContain('Rollout of ApplicationSet shop');
    const replies = h.replies(CHANNEL);
    const at = (needle: string) => replies.findIndex((r) => r.includes(needle));
    expect(at('Step 1 of 2')).toBeGreaterThanOrEqual(0);
    expect(at('Step 2 of 2')).toBeGreaterThan(at('↳ ✅ shop-dev-b Succeeded'));
    expect(at('↳ ✅ shop-dev-a Succeeded')).toBeGreaterThan(at('Step 1 of 2'));
    expect(at('↳ ✅ shop-prod Succeeded')).toBeGreaterThan(at('Step 2 of 2'));
    expect(await h.queue.allStatus()).toEqual([]);
    // The accepted rollout went through the command journal and was forgotten once started.
    expect(await h.redis.zcard(syncKeys(h.env.config.queue.prefix).commands)).toBe(0);
  }, 240_000);

  it('stops at the first Application that ends Degraded, with the reason, and syncs no later step', async () => {
    const fixture = await writeShop(
      [
        {
          name: 'dev-a',
          stage: 'dev',
          environment: 'staging',
          manifest: deployment('nginx:does-not-exist', 20),
        },
        { name: 'dev-b', stage: 'dev', environment: 'staging', manifest: deployment('nginx:1.25') },
        { name: 'prod', stage: 'prod', environment: 'staging', manifest: deployment('nginx:1.25') },
      ],
      STEPS,
    );
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });
    const env = h;

    await h.sync('shop', CHANNEL);
    const devA = await h.finished('shop-dev-a', 90_000);
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('Rollout of shop stopped')),
      60_000,
    );

    expect(devA.phase === 'Failed' || devA.health?.status === 'Degraded').toBe(true);
    expect(summary).toMatch(
      /^❌ Rollout of shop stopped at step 1: shop-dev-a (sync Failed|is Degraded).* · 0\/3 synced and Healthy · not synced: shop-dev-b, shop-prod$/,
    );
    expect(await h.queue.history('shop-dev-b')).toEqual([]);
    expect(await h.queue.history('shop-prod')).toEqual([]);
    // Shown in the channel too, as a failed App of Apps chain is.
    expect(
      env.env.slack
        .channelMessages(CHANNEL)
        .some((m) => m.broadcast && m.text.includes('Rollout of shop stopped')),
    ).toBe(true);
  }, 180_000);

  it('a rejected production approval stops the rollout at once, with who rejected it, and syncs no later step', async () => {
    const fixture = await writeShop(
      [
        { name: 'dev-a', stage: 'dev', environment: 'staging', manifest: deployment('nginx:1.25') },
        { name: 'prod', stage: 'prod', environment: 'production', manifest: deployment('nginx:1.25') },
        { name: 'late', stage: 'late', environment: 'staging', manifest: deployment('nginx:1.25') },
      ],
      `${STEPS}
        - matchExpressions: [{ key: stage, operator: In, values: [late] }]`,
    );
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });
    const env = h;

    await h.sync('shop', CHANNEL);
    await h.finished('shop-dev-a', 60_000);
    const approval = await env.env.slack.waitFor(() => {
      const root = env.env.slack.channelMessages(CHANNEL).find((m) => !m.threadTs);
      for (const m of root ? env.env.slack.thread(CHANNEL, root.ts) : []) {
        const reject = buttonsOf(env.env.slack, CHANNEL, m.ts)?.find((b) => b.action_id === REJECT_ACTION_ID);
        if (reject?.value) return { ts: m.ts, value: reject.value };
      }
      return undefined;
    }, 60_000);
    const approver = new SignedSlackClient(`http://127.0.0.1:${h.serve.port}`, h.env.signingSecret);
    const click = await approver.sendBlockAction({
      actionId: REJECT_ACTION_ID,
      userId: DEMO_USERS.approver.id,
      userName: DEMO_USERS.approver.name,
      messageTs: approval.ts,
      value: approval.value,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('Rollout of shop stopped')),
      30_000,
    );

    expect(summary).toBe(
      `❌ Rollout of shop stopped at step 2: shop-prod sync was rejected by @${DEMO_USERS.approver.id} · 1/3 synced and Healthy · not synced: shop-late`,
    );
    expect(
      env.env.slack
        .channelMessages(CHANNEL)
        .some((m) => m.broadcast && m.text.includes('Rollout of shop stopped')),
    ).toBe(true);
    expect(await h.queue.history('shop-prod')).toEqual([]);
    expect(await h.queue.history('shop-late')).toEqual([]);
    expect(await h.queue.allStatus()).toEqual([]);
  }, 180_000);

  it('a rollout acknowledged by a bot that died before its first step is carried out by the next bot, once', async () => {
    const fixture = await writeShop(
      [
        { name: 'dev-a', stage: 'dev', environment: 'staging', manifest: deployment('nginx:1.25') },
        { name: 'prod', stage: 'prod', environment: 'staging', manifest: deployment('nginx:1.25') },
      ],
      STEPS,
    );
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });
    const env = h;
    const keys = syncKeys(h.env.config.queue.prefix);
    // What the dead bot left: the journal entry it wrote before its "Got it" (its lease already lapsed), and the
    // rollout's header it posted without recording it; nothing queued.
    const id = randomUUID();
    const accepted: AcceptedRollout = {
      kind: 'rollout',
      channel: CHANNEL,
      userId: DEMO_USERS.requester.id,
      initiator: { userId: DEMO_USERS.requester.id, userName: DEMO_USERS.requester.name },
      chain: {
        applicationSet: 'shop',
        rolloutId: id,
        steps: [
          { applications: ['shop-dev-a'], atOnce: 1, maxUpdate: 1 },
          { applications: ['shop-prod'], atOnce: 1 },
        ],
        approval: [],
        unassigned: [],
      },
    };
    expect(isAcceptedRollout(accepted)).toBe(true);
    const web = createSlackWebClient({
      botToken: h.env.slack.botToken,
      apiUrl: h.env.slack.apiUrl,
      retries: 0,
    });
    const header = rolloutHeaderBlocks({
      applicationSet: 'shop',
      userId: accepted.initiator.userId,
      steps: accepted.chain.steps,
      approval: [],
      unassigned: [],
    });
    const posted = await web.chat.postMessage({
      channel: CHANNEL,
      text: header.text,
      blocks: header.blocks,
      metadata: { event_type: HEADER_EVENT_TYPE, event_payload: { command_id: id } },
    });
    await h.queue.commands.record(id, accepted, 1);

    // The running bot's recovery sweep (at start and every 5 s) carries it out.
    const devA = await h.finished('shop-dev-a', 90_000);
    const prod = await h.finished('shop-prod', 90_000);
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('Rollout of shop:')),
      60_000,
    );
    expect(summary).toBe('✅ Rollout of shop: 2/2 synced and Healthy');
    expect([devA, prod].map((e) => [e.phase, e.health?.status, e.initiator.userId])).toEqual([
      ['Succeeded', 'Healthy', DEMO_USERS.requester.id],
      ['Succeeded', 'Healthy', DEMO_USERS.requester.id],
    ]);
    expect(await h.redis.zcard(keys.commands)).toBe(0);

    // Once: the dead bot's header is the rollout's thread (no second header), and after more sweeps (and a bot
    // started again) every Application has one sync and the summary is posted once.
    await h.restartServe();
    await new Promise((r) => setTimeout(r, 6000));
    const roots = env.env.slack.channelMessages(CHANNEL).filter((m) => !m.threadTs);
    expect(roots.map((m) => m.ts)).toEqual([posted.ts]);
    expect(await h.queue.history('shop-dev-a')).toHaveLength(1);
    expect(await h.queue.history('shop-prod')).toHaveLength(1);
    expect(env.replies(CHANNEL).filter((r) => r.includes('Rollout of shop'))).toHaveLength(1);
    expect(await h.queue.allStatus()).toEqual([]);
  }, 240_000);
});
