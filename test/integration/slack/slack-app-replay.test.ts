/**
 * Replays over signed HTTP: the same signed bytes re-sent inside Slack's five-minute window are refused for the
 * whole window (remembered in real Redis), non-integer timestamps are refused. The bot's request clock is injected
 * and moved forward instead of sleeping; the bytes keep their original timestamp and signature.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redisReplayStore } from '../../../src/queue/index.js';
import { REPLAY_WINDOW_SECONDS } from '../../../src/slack/request-guard.js';
import { type Harness, SIGNING_SECRET, startHarness } from '../../fakes/slack-app-harness.js';
import { signSlackRequest } from '../../fakes/slack-client.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
let h: Harness;
let prefix: string;
const clock = { now: 0 };
const FORM = 'application/x-www-form-urlencoded';
const headers = () => h.fake.calls('chat.postMessage').length;

beforeEach(async () => {
  prefix = uniquePrefix();
  clock.now = Date.now();
  h = await startHarness({}, undefined, { replays: redisReplayStore(redis, prefix), now: () => clock.now });
});
afterEach(async () => {
  await h.close();
  await deleteKeys(redis, prefix);
});
afterAll(() => redis.quit());

describe('src/slack/request-guard over signed HTTP', () => {
  it.each([70, 200, 290])(
    'when the same signed /sync is re-sent %i s later, then it is refused (401) and nothing more is queued or posted',
    async (later) => {
      const ts = Math.floor(clock.now / 1000);
      const command = { text: 'guestbook', triggerId: 'trigger.replay.1' };
      const first = await h.slack.sendCommand(command, { timestampSec: ts });
      expect(first.status).toBe(200);
      await h.fake.waitFor(() => h.queue.requests.length === 1);
      const posted = headers();

      clock.now += later * 1000;
      const replay = await h.slack.sendCommand(command, { timestampSec: ts });

      expect(replay.status).toBe(401);
      expect(replay.body).toBe('');
      expect(h.queue.requests).toHaveLength(1);
      expect(headers()).toBe(posted);
    },
  );

  it('when Redis cannot be reached, then a /sync is answered 200 with an ephemeral "not run: Redis is unavailable" and nothing runs', async () => {
    // The shipped wiring's store on a Redis that is down (nothing listens on port 1): before, an empty 503, which
    // Slack shows as a bare "failed with the error http_service_unavailable".
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const unreachable = await startHarness({}, undefined, { replays: redisReplayStore(down, prefix) });
    try {
      const answer = await unreachable.slack.sendCommand({ text: 'guestbook --prune' });

      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        response_type: 'ephemeral',
        text: '`/sync guestbook --prune` was not run: Redis is unavailable, so wavesync cannot take requests. Try again in a minute.',
      });
      expect(unreachable.queue.requests).toHaveLength(0);
      expect(unreachable.fake.calls('chat.postMessage')).toHaveLength(0);
    } finally {
      await unreachable.close();
      down.disconnect();
    }
  });

  it('when a signed payload is malformed, then it is answered 400 without waiting for the replay store, and not remembered', async () => {
    // A replay store that never answers: the malformed payload's answer must not depend on it.
    let asked = 0;
    const stuck = await startHarness({}, undefined, {
      replays: {
        firstSeen: () => {
          asked++;
          return new Promise<boolean>(() => {});
        },
      },
    });
    try {
      const body = new URLSearchParams({ payload: JSON.stringify({ type: 'block_actions', actions: null }) });
      const answers = [
        await stuck.slack.sendRaw(body.toString(), FORM),
        await stuck.slack.sendRaw(body.toString(), FORM),
      ];

      expect(answers.map((a) => a.status)).toEqual([400, 400]);
      expect(answers[0]!.body).toMatch(/^malformed Slack request: /);
      expect(asked).toBe(0);
      expect(stuck.queue.requests).toHaveLength(0);
    } finally {
      await stuck.close();
    }
  });

  it('remembers a request in Redis for at least as long as its timestamp is accepted', async () => {
    const ts = Math.floor(clock.now / 1000);
    await h.slack.sendCommand({ text: 'help' }, { timestampSec: ts });

    const keys = await redis.keys(`${prefix}:slack:seen:*`);
    expect(keys).toHaveLength(1);
    expect(await redis.ttl(keys[0]!)).toBeGreaterThanOrEqual(REPLAY_WINDOW_SECONDS);
  });

  it('when a fresh request comes 290 s later, then it is accepted (only the same bytes are refused)', async () => {
    await h.slack.sendCommand({ text: 'help', triggerId: 't.1' });
    clock.now += 290_000;

    const fresh = await h.slack.sendCommand(
      { text: 'help', triggerId: 't.2' },
      { timestampSec: Math.floor(clock.now / 1000) },
    );

    expect(fresh.status).toBe(200);
  });

  it('when Slack re-delivers a request (X-Slack-Retry-Num), then it is answered 200 and nothing runs twice', async () => {
    const ts = Math.floor(clock.now / 1000);
    const command = { text: 'guestbook', triggerId: 'trigger.retry.1' };
    await h.slack.sendCommand(command, { timestampSec: ts });
    await h.fake.waitFor(() => h.queue.requests.length === 1);

    const retry = await h.slack.sendCommand(command, { timestampSec: ts, retryNum: 1 });

    expect(retry.status).toBe(200);
    expect(h.queue.requests).toHaveLength(1);
  });

  it.each([
    ['a fractional timestamp', (ts: number) => ts + 0.5],
    ['a microsecond fraction', (ts: number) => ts + 0.000001],
  ])('when a signed command carries %s, then it is refused (401)', async (_name, stamp) => {
    const res = await h.slack.sendCommand(
      { text: 'guestbook' },
      { timestampSec: stamp(Math.floor(clock.now / 1000)) },
    );

    expect(res.status).toBe(401);
    expect(h.queue.requests).toEqual([]);
  });

  it('when a genuine signature arrives first on other bytes, then it is not remembered and the genuine request is accepted', async () => {
    const ts = Math.floor(clock.now / 1000);
    const body = new URLSearchParams({
      command: '/sync',
      text: 'guestbook',
      user_id: 'U0PAT',
      user_name: 'pat',
      channel_id: 'C0DEPLOYS',
      team_id: 'T0FAKE',
      trigger_id: 'trigger.spoof.1',
      response_url: 'http://127.0.0.1:9/response/unused',
    }).toString();
    const signature = signSlackRequest(SIGNING_SECRET, ts, body);
    const forged = await h.slack.sendRaw('text=other', FORM, { timestampSec: ts, signature });
    const genuine = await h.slack.sendRaw(body, FORM, { timestampSec: ts, signature });

    expect([forged.status, genuine.status]).toEqual([401, 200]);
    await h.fake.waitFor(() => h.queue.requests.length === 1);
  });
});
