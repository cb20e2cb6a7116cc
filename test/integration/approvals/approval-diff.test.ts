/**
 * The live diff reaches the approvers: the guestbook Application synced into the simulator, then edited live
 * (another field manager changes the image; the HPA-like scale of replicas is ignored through ignoreDifferences)
 * and changed in git (a Secret's value). `/sync guestbook` posts an approval message with the counts and the
 * changed field; View diff opens a modal (views.open with the click's trigger_id, then views.update) with the
 * unified diff; `/sync diff guestbook` answers the requester alone; no Secret value reaches Slack or the bot's log; Approve after
 * another live edit is refused as changed since the request.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/applications/manifests/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { VIEW_DIFF_ACTION_ID } from '../../../src/environments/index.js';
import { createLogger } from '../../../src/logger.js';
import { type Harness, startHarness, syncObjects } from '../../e2e/engine/support/engine-harness.js';
import { testRedis } from '../support/queue-test-env.js';
import { buttonsOf, DEPLOYS, type FlowEnv, type PostedApproval, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
/** Everything the bot logs, at debug level (Bolt included). */
const logs = new PassThrough();
let logText = '';
logs.on('data', (chunk: Buffer) => {
  logText += chunk.toString('utf8');
});
let sim: Harness;
let env: FlowEnv;
/** The approval message of the first test (still pending for the last one). */
let posted: PostedApproval;
const OLD_PASSWORD = 'old-db-password-1';
const NEW_PASSWORD = 'new-db-password-2';

function secretYaml(password: string): string {
  return [
    'apiVersion: v1',
    'kind: Secret',
    'metadata: { name: db }',
    `stringData: { DB_PASSWORD: ${password} }`,
    '',
  ].join('\n');
}

async function editDeployment(patch: unknown): Promise<void> {
  const res = await fetch(
    `${sim.sim.url}/apis/apps/v1/namespaces/guestbook/deployments/guestbook-ui?fieldManager=kubectl-edit`,
    {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify(patch),
    },
  );
  expect(res.status).toBe(200);
}

/** Every text wavesync sent to Slack (Web API calls, response_url posts, modals) and every line it logged. */
function everythingSentToSlackAndLogged(): string {
  return JSON.stringify([env.slack.calls(), env.slack.responseUrlPosts(), env.slack.views()]) + logText;
}

beforeAll(async () => {
  sim = await startHarness();
  sim.sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } } as KubeObject);
  env = await startFlowEnv(redis, {
    cluster: sim.cluster,
    logger: createLogger({ level: 'debug', destination: logs }),
    guestbookSpec: {
      ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] }],
    },
  });
  writeFileSync(path.join(env.appDir, 'db-secret.yaml'), secretYaml(OLD_PASSWORD));
  const { objects } = await loadManifests(env.appDir);
  const run = await syncObjects(sim, objects, { application: 'guestbook', namespace: 'guestbook' });
  expect(run.state.phase).toBe('Succeeded');
  await editDeployment({
    spec: {
      replicas: 4,
      template: { spec: { containers: [{ name: 'guestbook-ui', image: 'gb-frontend:hotfix' }] } },
    },
  });
  writeFileSync(path.join(env.appDir, 'db-secret.yaml'), secretYaml(NEW_PASSWORD));
}, 60_000);

afterAll(async () => {
  await env?.close();
  await sim?.stop();
  await redis.quit();
});

describe('the live diff in the approval flow', () => {
  it('shows the changed field and the masked Secret key on the approval message, in View diff and in /sync diff', async () => {
    posted = await env.requestApproval('guestbook');
    const message = env.slack.message(DEPLOYS, posted.ts)!;
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('*Live diff:* 2 to change');
    expect(text).toContain(
      'spec.template.spec.containers[0].image: gb-frontend:hotfix → gcr.io/google-samples/gb-frontend:v5',
    );
    expect(text).toContain('changed key DB_PASSWORD');
    expect(text).not.toContain('replicas');
    const view = buttonsOf(env.slack, DEPLOYS, posted.ts)?.find((b) => b.action_id === VIEW_DIFF_ACTION_ID);
    expect(view?.value).toBe(posted.value);

    await env.bot.sendBlockAction({
      actionId: VIEW_DIFF_ACTION_ID,
      value: view!.value!,
      messageTs: posted.ts,
      userId: 'U0PAT',
      channelId: DEPLOYS,
    });
    const modal = await env.slack.waitFor(() => env.slack.views().find((v) => v.updates > 0), 20_000);
    const modalText = JSON.stringify(modal.view);
    expect(modalText).toContain('===== Deployment guestbook/guestbook-ui (change) =====');
    expect(modalText).toMatch(
      /-\s+- image: gb-frontend:hotfix\\n\+\s+- image: gcr.io\/google-samples\/gb-frontend:v5/,
    );
    expect(modalText).not.toContain('changed since the request');

    await env.bot.sendCommand({
      text: 'diff guestbook',
      userId: 'U0PAT',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('diff-1'),
    });
    const reply = await env.slack.waitFor(() => env.slack.responseUrlPosts('diff-1')[0], 20_000);
    expect(reply.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(reply.body)).toContain('spec.template.spec.containers[0].image');

    const sent = everythingSentToSlackAndLogged();
    expect(logText).not.toBe('');
    for (const value of [OLD_PASSWORD, NEW_PASSWORD]) {
      expect(sent).not.toContain(value);
      expect(sent).not.toContain(Buffer.from(value).toString('base64'));
    }
  }, 60_000);

  it('refuses /sync diff to someone who may not dry-run the Application, without computing it', async () => {
    await env.bot.sendCommand({
      text: 'diff guestbook',
      userId: 'U0PAT',
      channelId: 'C0ELSEWHERE',
      responseUrl: env.slack.responseUrl('diff-2'),
    });
    const reply = await env.slack.waitFor(() => env.slack.responseUrlPosts('diff-2')[0], 20_000);
    expect(JSON.stringify(reply.body)).toContain(
      'A dry run of guestbook (production) can only be requested from',
    );
    expect(JSON.stringify(reply.body)).not.toContain('Live diff');
  }, 30_000);

  it('refuses View diff from a channel the dry-run is not allowed in, with the mentions as Slack renders them', async () => {
    const before = env.slack.views().length;
    await env.bot.sendBlockAction({
      actionId: VIEW_DIFF_ACTION_ID,
      value: posted.value,
      messageTs: posted.ts,
      userId: 'U0PAT',
      channelId: 'C0ELSEWHERE',
    });
    const modal = await env.slack.waitFor(
      () =>
        env.slack
          .views()
          .slice(before)
          .find((v) => v.updates > 0),
      20_000,
    );
    const modalText = JSON.stringify(modal.view);
    expect(modalText).toContain('A dry run of guestbook (production) can only be requested from <#');
    expect(modalText).not.toContain('&lt;');
  }, 30_000);

  it('refuses Approve when the live state changed since the request, and says so on the message', async () => {
    await editDeployment({
      spec: { template: { spec: { containers: [{ name: 'guestbook-ui', image: 'gb-frontend:other' }] } } },
    });

    await env.bot.sendBlockAction({
      actionId: 'wavesync_approve',
      value: posted.value,
      messageTs: posted.ts,
      userId: 'U0SAM',
      channelId: DEPLOYS,
    });
    const closed = await env.slack.waitFor(() => {
      const text = JSON.stringify(env.slack.message(DEPLOYS, posted.ts)?.blocks ?? []);
      return text.includes('live state changed since the request') ? text : undefined;
    }, 20_000);
    expect(closed).toContain('Invalidated');
  }, 60_000);
});
