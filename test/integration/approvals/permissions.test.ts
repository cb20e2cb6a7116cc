/**
 * Who may do what, from the outside: signed HTTP requests to the bot (Bolt verifies every one), the fake Slack
 * Web API, the real queue, worker and approval flow on Redis. A production sync is requested by @pat, approved
 * by @sam and kept running (the recording runner's step lasts 60 s, abortable), then other people try to cancel it.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { redisDriftNoticeRefs } from '../../../src/drift/index.js';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { DRIFT_SYNC_ACTION_ID } from '../../../src/slack/messages/drift-notice-blocks.js';
import { CANCEL_ACTION_ID } from '../../../src/slack/messages/sync-header-blocks.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import { ALERTS, DEPLOYS, type FlowEnv, SATURDAY, SETTINGS, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;
afterEach(async () => {
  // A sync a test left running would hold the worker's close for its whole 60 s step.
  await env.queue.cancel('guestbook', { userId: 'U0TEST', userName: 'test' }).catch(() => undefined);
  await env.close();
});
afterAll(() => redis.quit());

const RANDOM = 'C0RANDOM';

/** @pat asks for guestbook, @sam approves; resolves once the job runs, with its header ts and job id. */
async function runningProductionSync(): Promise<{ ts: string; jobId: string }> {
  const posted = await env.requestApproval('guestbook');
  await env.bot.sendBlockAction({
    actionId: APPROVE_ACTION_ID,
    userId: 'U0SAM',
    messageTs: posted.ts,
    value: posted.value,
    channelId: DEPLOYS,
  });
  const job = await waitFor(async () => {
    const [head] = await env.queue.applicationStatus('guestbook');
    return head?.state === 'active' ? head : undefined;
  }, 10_000);
  return { ts: posted.ts, jobId: job.jobId };
}

/** @eve, who may not cancel, clicks a Cancel button naming `jobId` from a channel of her own (a forged click). */
async function forgedCancelClick(jobId: string): Promise<void> {
  await env.bot.sendBlockAction({
    actionId: CANCEL_ACTION_ID,
    value: jobId,
    userId: 'U0EVE',
    channelId: RANDOM,
    messageTs: '1700000000.000100',
    responseUrl: env.slack.responseUrl('eve'),
  });
}

/** The ephemeral answer posted to `responseUrl(id)` (Bolt's respond()). */
async function answer(id: string): Promise<string> {
  const [post] = await env.slack.waitFor(() =>
    env.slack.responseUrlPosts(id).length ? env.slack.responseUrlPosts(id) : undefined,
  );
  expect(post?.body.response_type).toBe('ephemeral');
  return String(post?.body.text ?? '');
}

const nonEphemeralPosts = (channel: string) =>
  env.slack.calls('chat.postMessage').filter((c) => c.args.channel === channel);

describe('test/integration/approvals/permissions: cancel', () => {
  it('when someone who is neither requester, approver nor allowed to sync sends /sync cancel, then nothing is cancelled and only they are told', async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    const { jobId } = await runningProductionSync();

    await env.bot.sendCommand({
      text: 'cancel guestbook',
      userId: 'U0EVE',
      channelId: RANDOM,
      responseUrl: env.slack.responseUrl('eve'),
    });

    expect(await answer('eve')).toBe(
      '🚫 Only @U0SAM, @U0PAT, <!subteam^S0SRE> (and the requester of a sync) may cancel syncs of guestbook (production) here; anyone may from <#C0DEPLOYS>.',
    );
    expect(await env.queue.jobStatus(jobId)).toMatchObject({ state: 'active' });
    // Nothing public: no post in either channel says anything about a cancel (the running thread goes on).
    expect(nonEphemeralPosts(RANDOM)).toEqual([]);
    expect(JSON.stringify(env.slack.calls('chat.postMessage'))).not.toMatch(/cancel/i);
  });

  it('when a forged Cancel click names the job from another channel, then nothing is cancelled', async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    const { jobId } = await runningProductionSync();

    await forgedCancelClick(jobId);

    expect(await answer('eve')).toContain('may cancel syncs of guestbook (production)');
    expect(await env.queue.jobStatus(jobId)).toMatchObject({ state: 'active' });
    const view = await env.approvals.audit('guestbook', 'U0SAM');
    expect(view.allowed && view.records.some((r) => r.type === 'cancelled')).toBe(false);
  });

  it('when a forged Cancel click names a job that has ended, then it is refused the same way: nothing about the job is told', async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    const { jobId } = await runningProductionSync();
    await env.bot.sendCommand({
      text: 'cancel guestbook',
      userId: 'U0SAM',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('sam'),
    });
    await waitFor(async () => {
      const job = await env.queue.jobStatus(jobId);
      return job && job.state !== 'active' && job.state !== 'waiting' ? job : undefined;
    }, 20_000);

    await forgedCancelClick(jobId);

    const text = await answer('eve');
    expect(text).toContain('may cancel syncs of guestbook (production)');
    expect(text).not.toMatch(/ended|failed|completed/);
  });

  it('when the requester cancels with a reason, then it is audited, header and thread say who and why, and no failure is announced', async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    const { ts, jobId } = await runningProductionSync();

    await env.bot.sendCommand({
      text: 'cancel guestbook "wrong branch"',
      userId: 'U0PAT',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('pat'),
    });

    expect(await answer('pat')).toContain('Cancelling the running sync of guestbook');
    await waitFor(async () => (await env.queue.jobStatus(jobId))?.state === 'cancelled', 10_000);
    const header = await env.slack.waitFor(() => {
      const message = env.slack.message(DEPLOYS, ts);
      return message?.text.includes('Cancelled by') ? message : undefined;
    }, 10_000);
    expect(header.text).toContain('Cancelled by @U0PAT: wrong branch');
    expect(header.text).not.toContain('Failed');
    const summary = await env.slack.waitFor(
      () => env.slack.thread(DEPLOYS, ts).find((m) => m.text.includes('Cancelled by')),
      10_000,
    );
    expect(summary.text).toMatch(/^🚫 Cancelled by @U0PAT after .*: wrong branch · Operation terminated/m);
    expect(summary.text).not.toContain('❌');
    const audit = await waitFor(async () => {
      const view = await env.approvals.audit('guestbook', 'U0SAM');
      const records = view.allowed ? view.records : [];
      return records.some((r) => r.type === 'outcome') ? records : undefined;
    }, 10_000);
    expect(audit.find((r) => r.type === 'cancelled')).toMatchObject({
      userId: 'U0PAT',
      channel: DEPLOYS,
      jobId,
      reason: 'wrong branch',
    });
    expect(audit.find((r) => r.type === 'outcome')).toMatchObject({ phase: 'Terminated' });
    expect(nonEphemeralPosts(ALERTS)).toEqual([]);
  });

  it('when an approver clicks Cancel in another channel, then the sync is cancelled (approvers may, from anywhere)', async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    const { ts, jobId } = await runningProductionSync();

    await env.bot.sendBlockAction({
      actionId: CANCEL_ACTION_ID,
      value: jobId,
      userId: 'U0LEE',
      channelId: DEPLOYS,
      messageTs: ts,
      responseUrl: env.slack.responseUrl('lee'),
    });

    expect(await answer('lee')).toContain('Cancelling the running sync');
    await waitFor(async () => (await env.queue.jobStatus(jobId))?.state === 'cancelled', 10_000);
  });
});

describe('test/integration/approvals/permissions: per-action rules in wavesync.yaml', () => {
  const withPermissions = SETTINGS.replace(
    '  dual:',
    [
      '    permissions:',
      '      dry-run: { users: [U0KIM], channels: [C0DEPLOYS] }',
      '    applications:',
      '      guestbook:',
      '        permissions:',
      '          audit: { users: [U0KIM] }',
      '  dual:',
    ].join('\n'),
  );

  it('when an action has its own grant (and an Application override), then that grant decides', async () => {
    env = await startFlowEnv(redis, { settings: withPermissions });

    expect(
      await env.approvals.authorize({
        action: 'dry-run',
        application: 'guestbook',
        userId: 'U0PAT',
        channel: DEPLOYS,
      }),
    ).toMatchObject({ allowed: false, reason: 'Only <@U0KIM> may dry-run guestbook (production).' });
    expect(
      await env.approvals.authorize({
        action: 'dry-run',
        application: 'guestbook',
        userId: 'U0KIM',
        channel: DEPLOYS,
      }),
    ).toEqual({ allowed: true });
    expect(await env.approvals.audit('guestbook', 'U0SAM', 5, DEPLOYS)).toMatchObject({ allowed: false });
    expect(await env.approvals.audit('guestbook', 'U0KIM', 5, DEPLOYS)).toMatchObject({ allowed: true });
  });

  it('when the user-group lookup fails, then the user is told to try again, not that they may not', async () => {
    env = await startFlowEnv(redis);
    env.slack.failNext('usergroups.users.list', 'ratelimited');

    await env.bot.sendCommand({
      text: 'audit guestbook',
      userId: 'U0LEE',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('lee'),
    });

    const text = await answer('lee');
    expect(text).toContain('could not check your membership of <!subteam^S0SRE>');
    expect(text).toContain('Try again');
    expect(text).not.toContain('Only');
  });
});

describe('test/integration/approvals/permissions: refused requests are not duplicates', () => {
  it('when /sync is refused by a freeze, then the same command again is refused again (not "Already requested") and --break-glass right after goes through', async () => {
    env = await startFlowEnv(redis);
    env.clock.now = SATURDAY;
    const send = (text: string) => env.bot.sendCommand({ text, userId: 'U0PAT', channelId: DEPLOYS });

    const first = await send('guestbook');
    const again = await send('guestbook');

    for (const refusal of [first, again]) {
      expect(refusal.json).toMatchObject({ response_type: 'ephemeral' });
      expect(String(refusal.json?.text)).toMatch(
        /^🚫 Sync of guestbook is frozen until .* Nothing was queued\.$/,
      );
    }
    expect(env.slack.calls('chat.postMessage')).toEqual([]);

    const posted = await env.requestApproval('guestbook --break-glass "INC-7 payments down"');

    expect(JSON.stringify(env.slack.message(DEPLOYS, posted.ts)?.blocks)).toContain('INC-7 payments down');
    const types = await waitFor(async () => {
      const view = await env.approvals.audit('guestbook', 'U0SAM');
      const all = view.allowed ? view.records.map((r) => r.type) : [];
      return all.length === 3 ? all : undefined;
    });
    expect(types).toEqual(['requested', 'refused', 'refused']);
  });
});

describe('test/integration/approvals/permissions: the drift notice Sync button', () => {
  it('when someone who may not sync clicks it, then only they are told; a permitted click is audited with what triggered it', async () => {
    env = await startFlowEnv(redis);
    const click = (userId: string, channelId: string, id: string) =>
      env.bot.sendBlockAction({
        actionId: DRIFT_SYNC_ACTION_ID,
        value: 'guestbook',
        userId,
        channelId,
        messageTs: '1700000000.000200',
        responseUrl: env.slack.responseUrl(id),
      });

    await click('U0EVE', RANDOM, 'eve');

    expect(await answer('eve')).toBe(
      '🚫 guestbook (production) can only be synced from <#C0DEPLOYS>. Nothing was queued.',
    );
    expect(env.slack.calls('chat.postMessage')).toEqual([]);
    // The notice drift detection posted (and saved) is open: the click names it.
    await redisDriftNoticeRefs(redis, env.prefix).save('guestbook', {
      channel: DEPLOYS,
      ts: '1700000000.000200',
      differences: [],
    });

    await click('U0PAT', DEPLOYS, 'pat');

    const requested = await waitFor(async () => {
      const view = await env.approvals.audit('guestbook', 'U0SAM');
      return view.allowed ? view.records.find((r) => r.type === 'requested') : undefined;
    });
    expect(requested).toMatchObject({ userId: 'U0PAT', trigger: 'drift notice Sync button' });
  });
});

describe('test/integration/approvals/permissions: reading history and status', () => {
  it("when /sync history or /sync status <app> is asked outside the environment's channels, then it is refused in the ephemeral ack like /sync audit", async () => {
    env = await startFlowEnv(redis);
    const ask = async (text: string, channelId: string) => {
      const delivery = await env.bot.sendCommand({ text, userId: 'U0EVE', channelId });
      if (delivery.json) expect(delivery.json.response_type).toBe('ephemeral');
      return String(delivery.json?.text ?? '');
    };
    // Approvers may read from anywhere (as they may read the audit log); anyone from the environment's channel.
    const refusal =
      '🚫 Only @U0SAM, @U0PAT, <!subteam^S0SRE> may read the syncs of guestbook (production) here; anyone may from <#C0DEPLOYS>.';

    expect(await ask('history guestbook', RANDOM)).toBe(refusal);
    expect(await ask('status guestbook', RANDOM)).toBe(refusal);
    expect(nonEphemeralPosts(RANDOM)).toEqual([]);
    // Anyone may read from the environment's channel (the answer follows the ack).
    expect(await ask('history guestbook', DEPLOYS)).not.toContain('🚫');
  });

  it("when /sync status (all apps) is asked outside the environment's channels, then the running sync of its app is left out", async () => {
    env = await startFlowEnv(redis, { stepMs: 60_000 });
    await runningProductionSync();
    const status = async (who: string, channelId: string) => {
      await env.bot.sendCommand({
        text: 'status',
        userId: 'U0EVE',
        channelId,
        responseUrl: env.slack.responseUrl(who),
      });
      return answer(who);
    };

    expect(await status('here', DEPLOYS)).toContain('guestbook');
    expect(await status('elsewhere', RANDOM)).not.toContain('guestbook');
  });
});
