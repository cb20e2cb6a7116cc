/**
 * A sync waiting for approval is a request, not a job: the ack says so, `/sync status` shows it, and `/sync cancel`
 * withdraws it — for whoever the `cancel` permission allows (the requester always), refusing others ephemerally.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { testRedis } from '../support/queue-test-env.js';
import { buttonsOf, DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;
let replies = 0;

beforeEach(async () => {
  env = await startFlowEnv(redis);
});
afterEach(() => env.close());
afterAll(() => redis.quit());

/** `/sync <text>` by `userId` in `channelId`; resolves with its (ephemeral) reply to the response_url, as JSON. */
async function command(text: string, userId: string, channelId = DEPLOYS): Promise<{ reply: string }> {
  const key = `pending-${++replies}`;
  await env.bot.sendCommand({ text, userId, channelId, responseUrl: env.slack.responseUrl(key) });
  const posted = await env.slack.waitFor(() => env.slack.responseUrlPosts(key)[0], 10_000);
  return { reply: JSON.stringify(posted.body) };
}

describe('test/integration/approvals/pending-approval-commands', () => {
  it('acks "waiting for approval", shows the request in /sync status, and /sync cancel withdraws it (the requester may, others may not)', async () => {
    const res = await env.bot.sendCommand({ text: 'guestbook', userId: 'U0PAT', channelId: DEPLOYS });
    expect(res.json?.text).toContain('Got it: guestbook is waiting for approval.');
    expect(res.json?.text).not.toContain('syncing');
    const ts = await env.slack.waitFor(() => {
      const message = env.slack.channelMessages(DEPLOYS)[0];
      const approve =
        message && buttonsOf(env.slack, DEPLOYS, message.ts)?.find((b) => b.action_id === APPROVE_ACTION_ID);
      return approve ? message.ts : undefined;
    });

    const status = await command('status guestbook', 'U0EVE');
    expect(status.reply).toContain('waiting for approval (0 of 1)');
    expect(status.reply).toContain('requested by <@U0PAT>');
    const all = await command('status', 'U0EVE');
    expect(all.reply).toContain('guestbook');
    expect(all.reply).toContain('waiting for approval');

    // @eve is no approver, and may sync guestbook only in #deploys: from elsewhere she may not cancel it.
    const refused = await command('cancel guestbook', 'U0EVE', 'C0ELSEWHERE');
    expect(refused.reply).toContain('🚫');
    expect(refused.reply).toContain('may cancel syncs of guestbook (production)');
    expect(await env.approvals.pendingApprovals('guestbook')).toHaveLength(1);

    const withdrawn = await command('cancel guestbook wrong branch', 'U0PAT');
    expect(withdrawn.reply).toContain(
      'Withdrew the request to sync *guestbook* that was waiting for approval',
    );
    expect(await env.approvals.pendingApprovals('guestbook')).toEqual([]);
    await env.slack.waitFor(() => env.slack.message(DEPLOYS, ts)?.text.includes('Withdrawn by'));
    expect(env.slack.message(DEPLOYS, ts)?.text).toContain('Withdrawn by @U0PAT at 10:00 UTC: wrong branch');
    expect(buttonsOf(env.slack, DEPLOYS, ts)?.some((b) => b.action_id === APPROVE_ACTION_ID)).toBe(false);
    const audit = await env.approvals.audit('guestbook', 'U0SAM', 10, DEPLOYS);
    expect(audit.allowed && audit.records.map((r) => r.type)).toContain('cancelled');

    const after = await command('status guestbook', 'U0PAT');
    expect(after.reply).toContain('Nothing is running, queued or waiting for approval');
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  }, 60_000);
});
