/**
 * The approval flow with the bot's clock a year ahead of and a year behind Redis's: nothing the bot hands Redis
 * may be an absolute instant from its own clock (Redis expires keys by its clock), so a skewed bot — or a test's
 * fake clock — must not lose a request the moment it is written. Guards issue 26 ("main is red on a clean clone"):
 * the suite's fixed Wednesday stopped working a week after it was written.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import { buttonsOf, DEPLOYS, startFlowEnv, wednesdayOf } from './approval-flow-env.js';

const redis = testRedis();
afterAll(() => redis.quit());

const YEAR_MS = 365 * 86_400_000;

describe('test/integration/approvals/clock-skew', () => {
  it.each([
    ['a year ahead of', YEAR_MS],
    ['a year behind', -YEAR_MS],
  ])(
    'when the bot clock is %s Redis, then a request is refused to its requester, approved by another, and runs',
    async (_, skew) => {
      const env = await startFlowEnv(redis, { startAt: wednesdayOf(Date.now() + skew) });
      try {
        const posted = await env.requestApproval('guestbook');
        const click = async (userId: string) => {
          const before = env.slack.calls('chat.postEphemeral').length;
          const updates = env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0;
          await env.bot.sendBlockAction({
            actionId: APPROVE_ACTION_ID,
            userId,
            messageTs: posted.ts,
            value: posted.value,
            channelId: DEPLOYS,
          });
          await env.slack.waitFor(
            () =>
              env.slack.calls('chat.postEphemeral').length > before ||
              (env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0) > updates,
          );
        };

        env.clock.now += 29 * 60_000; // within the 30-minute expiry, by the bot's clock
        await click('U0PAT');
        expect(env.slack.calls('chat.postEphemeral').at(-1)?.args.text).toMatch(
          /^You requested this sync; someone else/,
        );
        await click('U0LEE');

        await waitFor(
          async () => (await env.queue.history('guestbook')).length === 1,
          15_000,
          'the sync to finish',
        );
        await env.slack.waitFor(() => env.slack.message(DEPLOYS, posted.ts)?.text?.includes('Succeeded'));
        expect(buttonsOf(env.slack, DEPLOYS, posted.ts)?.map((b) => b.action_id)).not.toContain(
          APPROVE_ACTION_ID,
        );
        expect((await env.queue.history('guestbook'))[0]).toMatchObject({ phase: 'Succeeded' });
      } finally {
        await env.close();
      }
    },
  );
});
