import type { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, SyncEvent } from '../../../src/domain/index.js';
import { ClusterError } from '../../../src/engine/cluster.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { createSlackReporter } from '../../../src/slack/reporters/slack-reporter.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../../src/thread/channel-pacer.js';
import { obj, sourced } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';
import { type FakeMessage, FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { feed } from '../../fakes/sync-event-streams.js';

const CHANNEL = 'C0DEPLOYS';
const OBJECTS = 4000;
const text = (m: FakeMessage) => renderBlocksAsText(m.blocks as Block[]);

/** Refuses the real apply (not the dry run) of ConfigMaps named `bad-*`, as an admission webhook might. */
class RefusingCluster extends FakeCluster {
  override async apply(o: KubeObject, options: { dryRun: boolean; validate?: boolean; force: boolean }) {
    if (!options.dryRun && o.metadata.name?.startsWith('bad-'))
      throw new ClusterError(`admission webhook denied ${o.metadata.name}`, {
        statusCode: 422,
        transient: false,
      });
    return super.apply(o, options);
  }
}

async function syncEvents(failing: number): Promise<SyncEvent[]> {
  const targets = Array.from({ length: OBJECTS }, (_, i) => ({
    ...obj('v1', 'ConfigMap', `${i < failing ? 'bad' : 'cm'}-${String(i).padStart(4, '0')}`),
    data: { i: String(i) },
  }));
  const events: SyncEvent[] = [];
  await runOperation({
    application: 'big',
    targets: sourced(...targets),
    namespace: 'app',
    revision: 'r1',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster: new RefusingCluster(),
    reporter: { report: async (e) => void events.push(e) },
    options: { healthTimeoutMs: 0 },
  });
  return events;
}

describe('a wave of 4,000 objects in the Slack thread', () => {
  let fake: FakeSlackApi;
  afterEach(async () => fake?.close());

  async function thread(events: SyncEvent[]): Promise<string[]> {
    fake = await FakeSlackApi.start({ postIntervalMs: 20, burst: 3 });
    const client: WebClient = createSlackWebClient({
      botToken: fake.botToken,
      apiUrl: fake.apiUrl,
      retries: 0,
    });
    const root = await client.chat.postMessage({ channel: CHANNEL, text: 'header' });
    const reporter = createSlackReporter({
      client,
      target: { channel: CHANNEL, threadTs: root.ts! },
      header: {
        application: 'big',
        destination: 'staging',
        initiator: { userId: 'U0PAT', userName: 'pat' },
        commandText: '/sync big',
        jobId: 'job-1',
      },
      pacer: new ChannelPacer(20),
      headerIntervalMs: 20,
      coalesceMs: 5,
    });
    await feed(reporter, events);
    // Lines the reporter coalesced into one message are still one line each.
    return fake.thread(CHANNEL, root.ts!).map(text).join('\n').split('\n');
  }

  it('is one reply when the wave starts and one when it completes, with counts, not a line per object', async () => {
    const replies = await thread(await syncEvents(0));

    expect(replies).toHaveLength(3);
    expect(replies[0]).toBe(
      '▶ Sync · wave 0 — applying 4000 resources: ConfigMap/cm-0000, ConfigMap/cm-0001, ConfigMap/cm-0002, ConfigMap/cm-0003, ConfigMap/cm-0004 and 3995 more',
    );
    expect(replies[1]).toMatch(/^✓ Sync · wave 0 — done after \d/);
    expect(replies[2]).toMatch(/^🎉 Succeeded in .* · 4000 resources synced/);
  });

  it('when 250 of them fail to apply, the wave reply gives the count and the first failures only', async () => {
    const replies = await thread(await syncEvents(250));

    const failed = replies.find((r) => r.startsWith('✗ Sync · wave 0'));
    expect(failed).toMatch(
      /^✗ Sync · wave 0 — failed after .*: 250 of 4000 failed, first: ConfigMap\/bad-0000: .*admission webhook denied bad-0000; ConfigMap\/bad-0001: .*; ConfigMap\/bad-0002: .*; …$/,
    );
    expect(replies.length).toBeLessThanOrEqual(5);
    expect(replies.every((r) => r.length < 3000)).toBe(true);
  });
});
