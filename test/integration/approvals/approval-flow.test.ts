import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVE_ACTION_ID,
  encodeApprovalButtonValue,
  REJECT_ACTION_ID,
} from '../../../src/environments/index.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import {
  buttonsOf as buttonsOfMessage,
  DEPLOYS,
  type FlowEnv,
  type PostedApproval,
  startFlowEnv,
} from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;

beforeEach(async () => {
  env = await startFlowEnv(redis);
});
afterEach(() => env.close());
afterAll(() => redis.quit());

type Posted = PostedApproval;

function buttonsOf(ts: string) {
  return buttonsOfMessage(env.slack, DEPLOYS, ts);
}

const requestApproval = (text: string, userId?: string) => env.requestApproval(text, userId);

async function click(actionId: string, userId: string, posted: Posted, value = posted.value): Promise<void> {
  const ephemerals = env.slack.calls('chat.postEphemeral').length;
  const updates = env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0;
  const delivery = await env.bot.sendBlockAction({
    actionId,
    userId,
    messageTs: posted.ts,
    value,
    channelId: DEPLOYS,
  });
  expect(delivery.status).toBe(200);
  await env.slack.waitFor(
    () =>
      env.slack.calls('chat.postEphemeral').length > ephemerals ||
      (env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0) > updates,
  );
}

function lastEphemeralTo(userId: string): string | undefined {
  return env.slack
    .calls('chat.postEphemeral')
    .filter((c) => c.args.user === userId)
    .at(-1)?.args.text as string | undefined;
}

function headerText(ts: string): string {
  return env.slack.message(DEPLOYS, ts)?.text ?? '';
}

describe('test/integration/approvals/approval-flow', () => {
  it('when /sync targets production, then the header becomes an approval request with the plan and nothing is queued', async () => {
    const posted = await requestApproval('guestbook');

    const message = env.slack.message(DEPLOYS, posted.ts);
    const body = JSON.stringify(message?.blocks);
    expect(message?.text).toContain('guestbook → production  ·  needs approval');
    expect(body).toContain(
      '2 to apply (Service/guestbook-ui, Deployment/guestbook-ui) (live state not checked',
    );
    expect(body).toContain('hooks: none');
    expect(body).toContain('(0 of 1 approval) · expires at 10:30 UTC');
    expect(buttonsOf(posted.ts)?.map((b) => b.action_id)).toEqual([APPROVE_ACTION_ID, REJECT_ACTION_ID]);
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when a group member approves, then the sync is queued, runs, and the header and thread follow it', async () => {
    const posted = await requestApproval('guestbook');

    await click(APPROVE_ACTION_ID, 'U0LEE', posted);

    await waitFor(
      async () => (await env.queue.history('guestbook')).length === 1,
      15_000,
      'the sync to finish',
    );
    await env.slack.waitFor(() => headerText(posted.ts).includes('Succeeded'));
    expect(buttonsOf(posted.ts)?.map((b) => b.action_id)).not.toContain(APPROVE_ACTION_ID);
    const thread = env.slack.thread(DEPLOYS, posted.ts).map((m) => m.text);
    expect(thread[0]).toBe('✅ Approved by @U0LEE — sync queued.');
    expect((await env.queue.history('guestbook'))[0]).toMatchObject({
      phase: 'Succeeded',
      initiator: { userId: 'U0PAT' },
    });
  });

  it('when the requester approves their own request, then it is refused and the request is unchanged', async () => {
    const posted = await requestApproval('guestbook');

    await click(APPROVE_ACTION_ID, 'U0PAT', posted);

    expect(lastEphemeralTo('U0PAT')).toBe(
      'You requested this sync; someone else from @U0SAM, @U0PAT, <!subteam^S0SRE> must approve it.',
    );
    expect(buttonsOf(posted.ts)).toHaveLength(2);
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when a non-approver clicks, then it is refused with who may approve', async () => {
    const posted = await requestApproval('guestbook');

    await click(APPROVE_ACTION_ID, 'U0EVE', posted);

    expect(lastEphemeralTo('U0EVE')).toContain(
      'Only @U0SAM, @U0PAT, <!subteam^S0SRE> may approve syncs of guestbook',
    );
    expect(buttonsOf(posted.ts)).toHaveLength(2);
  });

  it('when an approver is removed from the group after their membership was read, then their Approve is refused at once', async () => {
    // @lee reads the audit log as a member of @sre: the membership is now cached for reads (5 minutes).
    expect(await env.approvals.audit('guestbook', 'U0LEE')).toMatchObject({ records: expect.any(Array) });
    env.slack.setUsergroup('S0SRE', []);
    const posted = await requestApproval('guestbook');

    await click(APPROVE_ACTION_ID, 'U0LEE', posted);

    expect(lastEphemeralTo('U0LEE')).toContain(
      'Only @U0SAM, @U0PAT, <!subteam^S0SRE> may approve syncs of guestbook',
    );
    expect(buttonsOf(posted.ts)).toHaveLength(2);
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when Slack cannot say who is in the group at decision time, then the Approve is refused with a retry hint', async () => {
    expect(await env.approvals.audit('guestbook', 'U0LEE')).toMatchObject({ records: expect.any(Array) });
    const posted = await requestApproval('guestbook');
    env.slack.failNext('usergroups.users.list', 'ratelimited');

    await click(APPROVE_ACTION_ID, 'U0LEE', posted);

    expect(lastEphemeralTo('U0LEE')).toBe(
      'I could not check your membership of <!subteam^S0SRE> with Slack, so I cannot tell whether you may approve syncs of guestbook (production). Try again in a minute.',
    );
    expect(buttonsOf(posted.ts)).toHaveLength(2);
    await click(APPROVE_ACTION_ID, 'U0LEE', posted);
    await waitFor(async () => (await env.queue.history('guestbook')).length === 1, 15_000, 'the sync');
  });

  it('when two approvers click at the same instant, then exactly one job is queued', async () => {
    const posted = await requestApproval('guestbook');

    const clicks = ['U0SAM', 'U0LEE', 'U0SAM', 'U0LEE'].map((userId) =>
      env.bot.sendBlockAction({
        actionId: APPROVE_ACTION_ID,
        userId,
        messageTs: posted.ts,
        value: posted.value,
        channelId: DEPLOYS,
      }),
    );
    await Promise.all(clicks);

    await waitFor(
      async () => (await env.queue.history('guestbook')).length === 1,
      15_000,
      'the sync to finish',
    );
    await env.slack.waitFor(() => env.slack.calls('chat.postEphemeral').length === 3);
    const queued = (await env.approvals.audit('guestbook', 'U0SAM')) as { records: { type: string }[] };
    expect(queued.records.filter((r) => r.type === 'queued')).toHaveLength(1);
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when the request expired, then a click is refused and the message says expired without buttons', async () => {
    const posted = await requestApproval('guestbook');
    env.clock.now += 31 * 60_000;

    await click(APPROVE_ACTION_ID, 'U0SAM', posted);

    await env.slack.waitFor(() => lastEphemeralTo('U0SAM'));
    expect(lastEphemeralTo('U0SAM')).toBe('This request expired. Run /sync guestbook again.');
    expect(headerText(posted.ts)).toContain('Expired — run /sync guestbook again');
    expect(buttonsOf(posted.ts)).toEqual([]);
  });

  it('when nobody acts, then the sweeper expires the request once', async () => {
    const posted = await requestApproval('guestbook');
    env.clock.now += 30 * 60_000;

    expect(await env.approvals.expireDue()).toBe(1);
    expect(await env.approvals.expireDue()).toBe(0);

    expect(headerText(posted.ts)).toContain('Expired — run /sync guestbook again');
    expect(buttonsOf(posted.ts)).toEqual([]);
  });

  it('when the button value is tampered with, then the click is refused and nothing changes', async () => {
    const first = await requestApproval('guestbook');
    const second = await requestApproval('guestbook', 'U0KIM');
    const ids = [first, second].map((p) => JSON.parse(p.value).r as string);

    await click(APPROVE_ACTION_ID, 'U0SAM', second, first.value);
    await click(
      APPROVE_ACTION_ID,
      'U0SAM',
      first,
      encodeApprovalButtonValue({ requestId: ids[0] ?? '', application: 'payments' }),
    );
    await click(
      APPROVE_ACTION_ID,
      'U0SAM',
      first,
      encodeApprovalButtonValue({ requestId: randomUUID(), application: 'guestbook' }),
    );
    await click(APPROVE_ACTION_ID, 'U0SAM', first, 'not json');

    const refusals = env.slack.calls('chat.postEphemeral').map((c) => c.args.text);
    expect(refusals).toEqual([
      'This button does not match the approval request it is attached to; nothing was changed.',
      'This button does not match the approval request it is attached to; nothing was changed.',
      'This button does not match the approval request it is attached to; nothing was changed.',
      'This button does not belong to a wavesync approval request.',
    ]);
    expect(buttonsOf(first.ts)).toHaveLength(2);
    expect(buttonsOf(second.ts)).toHaveLength(2);
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when two approvals are required, then one approver counts once and a second distinct approver queues it', async () => {
    const posted = await requestApproval('payments');

    await click(APPROVE_ACTION_ID, 'U0SAM', posted);
    expect(JSON.stringify(env.slack.message(DEPLOYS, posted.ts)?.blocks)).toContain(
      '(1 of 2 approvals) · approved so far by <@U0SAM>',
    );
    await click(APPROVE_ACTION_ID, 'U0SAM', posted);
    expect(lastEphemeralTo('U0SAM')).toBe('You already approved this request; another approver is needed.');
    expect(await env.queue.applicationStatus('payments')).toEqual([]);
    await click(APPROVE_ACTION_ID, 'U0KIM', posted);

    await waitFor(
      async () => (await env.queue.history('payments')).length === 1,
      15_000,
      'the sync to finish',
    );
    expect(env.slack.thread(DEPLOYS, posted.ts)[0]?.text).toBe(
      '✅ Approved by @U0SAM, @U0KIM — sync queued.',
    );
  });

  it('when an approver rejects, then the message shows who rejected and later clicks are refused', async () => {
    const posted = await requestApproval('guestbook');

    await click(REJECT_ACTION_ID, 'U0SAM', posted);
    await click(APPROVE_ACTION_ID, 'U0LEE', posted);

    expect(headerText(posted.ts)).toContain('Rejected by @U0SAM');
    expect(lastEphemeralTo('U0LEE')).toBe('This request was rejected by @U0SAM.');
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when the requester clicks Reject, then the request reads as withdrawn, not rejected', async () => {
    const posted = await requestApproval('guestbook');

    await click(REJECT_ACTION_ID, 'U0PAT', posted);
    await click(APPROVE_ACTION_ID, 'U0SAM', posted);

    expect(headerText(posted.ts)).toContain('Withdrawn by @U0PAT');
    expect(headerText(posted.ts)).not.toContain('Rejected');
    expect(lastEphemeralTo('U0SAM')).toBe('This request was withdrawn by @U0PAT.');
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when a PreSync Job reads a ConfigMap the sync creates later, then the approval message warns about it', async () => {
    await writeFile(
      path.join(env.appDir, 'migrate.yaml'),
      [
        'apiVersion: batch/v1',
        'kind: Job',
        'metadata: { name: schema-migrate, annotations: { argocd.argoproj.io/hook: PreSync } }',
        'spec:',
        '  template:',
        '    spec:',
        '      restartPolicy: Never',
        '      containers: [{ name: migrate, image: alpine:3.20, envFrom: [{ configMapRef: { name: storefront-db-env } }] }]',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: storefront-db-env }',
        'data: { DATABASE_URL: postgres://db/storefront }',
      ].join('\n'),
    );

    const posted = await requestApproval('guestbook');

    expect(JSON.stringify(env.slack.message(DEPLOYS, posted.ts)?.blocks)).toContain(
      '⚠️ PreSync Job/schema-migrate reads ConfigMap/storefront-db-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave',
    );
  });
});
