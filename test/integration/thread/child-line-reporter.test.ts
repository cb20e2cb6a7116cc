import type { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { createSlackChildLineReporter } from '../../../src/slack/reporters/slack-reporter.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../../src/thread/channel-pacer.js';
import type { ChildLineStore } from '../../../src/thread/child-line-reporter.js';
import { type FakeMessage, FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { feed, manyWavesEvents, prePostSyncEvents } from '../../fakes/sync-event-streams.js';

const CHANNEL = 'C0APPS';
const text = (m: FakeMessage) => renderBlocksAsText(m.blocks as Block[]);

describe('src/thread/child-line-reporter in Slack against the fake Slack API', () => {
  let fake: FakeSlackApi;
  afterEach(async () => fake?.close());

  async function setup() {
    fake = await FakeSlackApi.start({ postIntervalMs: 20, burst: 3 });
    const client: WebClient = createSlackWebClient({
      botToken: fake.botToken,
      apiUrl: fake.apiUrl,
      retries: 0,
    });
    const root = await client.chat.postMessage({ channel: CHANNEL, text: 'parent header' });
    const target = { channel: CHANNEL, threadTs: root.ts! };
    const saved = new Map<string, string>();
    const store: ChildLineStore = {
      get: async (jobId) => saved.get(jobId),
      set: async (jobId, ts) => void saved.set(jobId, ts),
    };
    const make = (jobId = 'job-1') =>
      createSlackChildLineReporter({
        client,
        target,
        jobId,
        application: 'example.guestbook',
        pacer: new ChannelPacer(20),
        store,
        updateIntervalMs: 20,
      });
    return { target, make, saved };
  }

  it('when a child syncs, then one reply in the parent thread is updated in place and ends with the outcome', async () => {
    const { target, make, saved } = await setup();

    await feed(make(), prePostSyncEvents(), 30);

    const replies = fake.thread(CHANNEL, target.threadTs);
    expect(replies).toHaveLength(1);
    expect(text(replies[0]!)).toMatch(/^↳ ✅ example\.guestbook Succeeded · Healthy · \d/);
    expect(fake.calls('chat.update').length).toBeGreaterThan(0);
    expect(saved.get('job-1')).toBe(replies[0]!.ts);
  });

  it('when a child fails, then its line says Failed with the message', async () => {
    const { target, make } = await setup();

    await feed(make(), prePostSyncEvents({ failPreSync: true }), 10);

    const [line] = fake.thread(CHANNEL, target.threadTs).map(text);
    expect(line).toMatch(/^↳ ❌ example\.guestbook Failed: /);
  });

  it('when a resumed child reports again, then it updates the same line instead of posting another', async () => {
    const { target, make } = await setup();
    const events = prePostSyncEvents();
    const first = make();
    await first.report(events[0]!);
    await first.close();

    await feed(make(), events, 5);

    expect(fake.thread(CHANNEL, target.threadTs)).toHaveLength(1);
  });

  it('when a child has many waves, then its updates stay within waves + 3 calls', async () => {
    const { make } = await setup();
    const before = fake.calls().length;

    await feed(make(), manyWavesEvents(40, 0), 0);

    expect(fake.calls().length - before).toBeLessThanOrEqual(43);
  });
});
