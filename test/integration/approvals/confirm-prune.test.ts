import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRedis } from '../support/queue-test-env.js';
import { DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;

beforeEach(async () => {
  env = await startFlowEnv(redis);
});
afterEach(() => env.close());
afterAll(() => redis.quit());

/**
 * `/sync <text>` by `userId` (signed as Slack signs it); resolves with the ephemeral reply's text: in the ack
 * (input errors) or posted to the response_url (after the work is done).
 */
async function command(text: string, userId: string): Promise<string> {
  const id = randomUUID();
  const delivery = await env.bot.sendCommand({
    text,
    userId,
    channelId: DEPLOYS,
    responseUrl: env.slack.responseUrl(id),
  });
  expect(delivery.status).toBe(200);
  if (typeof delivery.json?.text === 'string') return delivery.json.text;
  const post = await env.slack.waitFor(() => env.slack.responseUrlPosts(id)[0]);
  return String((post.body as { text?: unknown }).text ?? '');
}

describe('/sync confirm-prune <app> (Prune=confirm, Argo CD deletion-approved)', () => {
  it('in production only an approver may confirm; the confirmation lands in Redis where workers read it, and is audited', async () => {
    expect(await env.queue.pruneConfirmedAt('guestbook')).toBeUndefined();

    const refused = await command('confirm-prune guestbook', 'U0NOBODY');
    expect(refused).toContain(
      'Only @U0SAM, @U0PAT, <!subteam^S0SRE> may confirm pruning of guestbook (production).',
    );
    expect(await env.queue.pruneConfirmedAt('guestbook')).toBeUndefined();

    const before = new Date().toISOString();
    const confirmed = await command('confirm-prune guestbook', 'U0SAM');
    expect(confirmed).toMatch(/Pruning of guestbook confirmed at \d\d:\d\d:\d\d UTC/);
    const at = await env.queue.pruneConfirmedAt('guestbook');
    expect(at !== undefined && at >= before).toBe(true);

    const audit = (await env.approvals.audit('guestbook', 'U0SAM')) as {
      records: { type: string; userId?: string }[];
    };
    expect(audit.records[0]).toMatchObject({ type: 'prune-confirmed', userId: 'U0SAM' });
  });

  it('an unknown application gets "Did you mean" and nothing is recorded', async () => {
    const reply = await command('confirm-prune guestbok', 'U0SAM');
    expect(reply).toContain('guestbook');
    expect(await env.queue.pruneConfirmedAt('guestbok')).toBeUndefined();
  });
});
