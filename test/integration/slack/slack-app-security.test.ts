import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { createSlackApp } from '../../../src/slack/slack-app.js';
import { InMemorySyncQueue } from '../../fakes/in-memory-sync-queue.js';
import { APPS, catalogOf, type Harness, startHarness } from '../../fakes/slack-app-harness.js';
import type { DeliveryOptions } from '../../fakes/slack-client.js';

const now = () => Math.floor(Date.now() / 1000);

describe('src/slack/slack-app request verification', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  it.each<[string, () => DeliveryOptions]>([
    ['a forged signature', () => ({ signature: `v0=${'0'.repeat(64)}` })],
    ['a signature made with another secret', () => ({ signingSecret: 'not-the-secret' })],
    ['a stale timestamp (6 minutes old)', () => ({ timestampSec: now() - 360 })],
    ['a future timestamp (6 minutes ahead)', () => ({ timestampSec: now() + 360 })],
    ['no signature header', () => ({ omit: ['signature'] })],
    ['no timestamp header', () => ({ omit: ['timestamp'] })],
    ['neither header', () => ({ omit: ['signature', 'timestamp'] })],
  ])(
    'when a command carries %s, then the bot answers 401 and nothing is posted or queued',
    async (_name, options) => {
      const res = await h.slack.sendCommand({ text: 'guestbook' }, options());

      expect(res.status).toBe(401);
      expect(res.body).toBe('');
      expect(h.queue.requests).toEqual([]);
      expect(h.fake.calls().filter((c) => c.method !== 'auth.test')).toEqual([]);
    },
  );

  it('when a button click is forged, then the bot answers 401 and nothing is cancelled', async () => {
    const res = await h.slack.sendBlockAction(
      { actionId: 'wavesync_cancel', value: 'job-1', messageTs: '1.000001' },
      { signingSecret: 'forged' },
    );

    expect(res.status).toBe(401);
    expect(h.queue.cancels).toEqual([]);
  });

  it('when timestamps are within 5 minutes either way, then the command is accepted', async () => {
    const early = await h.slack.sendCommand({ text: 'help' }, { timestampSec: now() - 240 });
    const late = await h.slack.sendCommand({ text: 'help' }, { timestampSec: now() + 240 });

    expect([early.status, late.status]).toEqual([200, 200]);
  });

  it('serves extra routes next to /slack/events', async () => {
    const res = await fetch(`${h.botUrl}/healthz`);

    expect([res.status, await res.text()]).toEqual([200, 'ok']);
  });
});

describe('src/slack/slack-app receiver choice', () => {
  it('uses Socket Mode when an app-level token is given, HTTP otherwise', () => {
    const deps = {
      queue: new InMemorySyncQueue(),
      catalog: catalogOf(APPS),
      logger: createLogger({ level: 'silent' }),
    };
    const base = { botToken: 'xoxb-x', signingSecret: 's', apiUrl: 'http://127.0.0.1:9/api/', deps };

    expect(createSlackApp({ ...base, appToken: 'xapp-1-A-1-x' }).mode).toBe('socket');
    expect(createSlackApp(base).mode).toBe('http');
  });
});
