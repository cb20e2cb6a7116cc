import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { headerViewOf } from '../../../src/slack/commands/header-view.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { createSlackReporter } from '../../../src/slack/reporters/slack-reporter.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../../src/thread/channel-pacer.js';
import type { FakeMessage } from '../../fakes/fake-slack-api.js';
import { CHANNEL, type Harness, startHarness } from '../../fakes/slack-app-harness.js';
import { feed, PRE_POST_SYNC_THREAD, prePostSyncEvents } from '../../fakes/sync-event-streams.js';
import { createSlackReporterFactory } from '../../support/slack-reporter-factory.js';

const text = (m: FakeMessage) => renderBlocksAsText(m.blocks as Block[]);

describe('src/slack/slack-app /sync <app> over HTTP', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  /** Run the worker's side: a SlackReporter for the queued request, fed a realistic event stream. */
  async function runWorker(events = prePostSyncEvents()) {
    const request = h.queue.requests.at(-1)!;
    const client = createSlackWebClient({ botToken: h.fake.botToken, apiUrl: h.fake.apiUrl, retries: 0 });
    const header = headerViewOf(h.catalog, { ...request, jobId: 'job-1' });
    const reporter = createSlackReporter({
      client,
      target: request.target!,
      header,
      pacer: new ChannelPacer(20),
      headerIntervalMs: 20,
      coalesceMs: 5,
    });
    await feed(reporter, events, 20);
    return request.target!;
  }

  it('when a signed /sync guestbook arrives, then it is acked at once, the header is posted and the sync is queued for that thread', async () => {
    const res = await h.slack.sendCommand({ text: 'guestbook', responseUrl: h.fake.responseUrl('c1') });

    expect(res.status).toBe(200);
    expect(res.ackMs).toBeLessThan(3000);
    expect(res.json).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Got it: syncing guestbook'),
    });
    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    const [headerCall] = h.fake.calls('chat.postMessage');
    expect(headerCall!.args.channel).toBe(CHANNEL);
    expect(request).toEqual({
      application: 'guestbook',
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U0PAT', userName: 'pat' },
      target: { channel: CHANNEL, threadTs: (headerCall!.response as { ts: string }).ts },
      requestKey: expect.stringMatching(/^slack:[0-9a-f]{40}$/),
    });
    expect(text(h.fake.message(CHANNEL, request.target!.threadTs)!)).toBe(
      '⏳ guestbook → staging  ·  received\nrequested by @U0PAT · /sync guestbook',
    );
  });

  it('when the worker reports a successful sync, then the thread has wave and hook replies in order and the header says Succeeded', async () => {
    await h.slack.sendCommand({ text: 'guestbook' });
    await h.fake.waitFor(() => h.queue.requests[0]);

    const target = await runWorker();

    expect(h.fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n')).toEqual(
      PRE_POST_SYNC_THREAD,
    );
    expect(text(h.fake.message(CHANNEL, target.threadTs)!)).toBe(
      '✅ guestbook → staging  ·  Succeeded  ·  Healthy  ·  0:32\nrevision 3f9c2e1 · requested by @U0PAT · /sync guestbook',
    );
    expect(h.fake.channelMessages(CHANNEL)).toHaveLength(1);
  });

  it('when the PreSync hook fails, then the failure reply carries the log tail, the summary is broadcast and the header says Failed', async () => {
    await h.slack.sendCommand({ text: 'guestbook' });
    await h.fake.waitFor(() => h.queue.requests[0]);

    const target = await runWorker(prePostSyncEvents({ failPreSync: true }));

    const replies = h.fake.thread(CHANNEL, target.threadTs);
    const hookReply = replies
      .map(text)
      .find((t) => t.includes('✗ PreSync hook Job/pre-post-sync-before failed after 12 s'));
    expect(hookReply).toContain('│ PG::UndefinedTable: ERROR:  relation "orders" does not exist');
    expect(replies.at(-1)).toMatchObject({ broadcast: true });
    expect(text(replies.at(-1)!)).toMatch(
      /^❌ Failed in 12 s · one or more synchronization tasks completed unsuccessfully/,
    );
    expect(h.fake.channelMessages(CHANNEL).map((m) => m.ts)).toEqual([target.threadTs, replies.at(-1)!.ts]);
    expect(text(h.fake.message(CHANNEL, target.threadTs)!)).toMatch(
      /^❌ guestbook → staging {2}· {2}Failed {2}·/,
    );
  });

  it('when another sync of the app is running, then the header shows the queue position and who is ahead, with Cancel', async () => {
    h.queue.seed(
      {
        application: 'guestbook',
        operation: { prune: false, dryRun: false, syncOptions: [] },
        initiator: { userId: 'U0LEE', userName: 'lee' },
        target: undefined,
      },
      { currentWave: { phase: 'Sync', wave: 1, index: 2, total: 3 } },
    );

    await h.slack.sendCommand({ text: 'guestbook --prune' });

    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    const header = await h.fake.waitFor(() => {
      const m = h.fake.message(CHANNEL, request.target!.threadTs);
      return m && m.updates > 0 ? m : undefined;
    });
    expect(text(header)).toBe(
      "⏳ guestbook → staging  ·  queued · 2nd in line behind @U0LEE's sync (running, Sync wave 1 · step 2 of 3)\n" +
        'requested by @U0PAT · /sync guestbook --prune\n[Cancel]',
    );
  });

  it('when flags are given, then the queued operation carries them; a selective sync says hooks do not run', async () => {
    const res = await h.slack.sendCommand({
      text: 'guestbook --revision v2.1 --prune --dry-run --resource apps:Deployment:guestbook-ui —resource :Service:guestbook/guestbook-ui',
    });

    expect(res.json?.text).toContain('Selective sync: only the named resources, and hooks do not run.');
    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    expect(request.operation).toEqual({
      revision: 'v2.1',
      prune: true,
      dryRun: true,
      syncOptions: [],
      resources: [
        { group: 'apps', kind: 'Deployment', name: 'guestbook-ui' },
        { group: '', kind: 'Service', namespace: 'guestbook', name: 'guestbook-ui' },
      ],
    });
    expect(text(h.fake.message(CHANNEL, request.target!.threadTs)!).split('\n')[1]).toBe(
      'revision v2.1 · requested by @U0PAT · /sync guestbook --revision v2.1 --prune --dry-run --resource apps:Deployment:guestbook-ui --resource :Service:guestbook/guestbook-ui · selective sync: hooks do not run · dry run: nothing is applied',
    );
  });

  it('when Slack re-delivers the same command, then one header and one queued job result', async () => {
    const timestampSec = Math.floor(Date.now() / 1000);
    await h.slack.sendCommand({ text: 'guestbook', triggerId: 't1' }, { timestampSec });
    await h.fake.waitFor(() => h.queue.requests[0]);

    // The same signed bytes again: the request guard answers 200 and nothing runs (a replay without the
    // retry header would get 401).
    const retry = await h.slack.sendCommand(
      { text: 'guestbook', triggerId: 't1' },
      { retryNum: 1, timestampSec },
    );
    const double = await h.slack.sendCommand({ text: 'guestbook', triggerId: 't2' });

    expect([retry.status, retry.body]).toEqual([200, '']);
    expect(double.json?.text).toContain('Already requested');
    expect(h.fake.calls('chat.postMessage')).toHaveLength(1);
    expect(h.queue.requests).toHaveLength(1);
  });

  it('when --resource names a resource the Application does not contain, then it is refused before anything is posted or queued', async () => {
    h.catalog.resourcesOf = async () => [
      { group: 'apps', kind: 'Deployment', namespace: 'guestbook', name: 'guestbook-ui' },
      { group: '', kind: 'Service', namespace: 'guestbook', name: 'guestbook-ui' },
    ];

    const missing = await h.slack.sendCommand({ text: 'guestbook --resource apps:Deployment:nope' });
    const present = await h.slack.sendCommand({
      text: 'guestbook --resource apps:Deployment:guestbook/guestbook-ui',
    });

    expect(missing.json?.text).toContain('guestbook has no apps:Deployment:nope in its manifests');
    expect(present.json?.text).toContain('Got it: syncing');
    await h.fake.waitFor(() => h.queue.requests.length === 1);
    expect(h.queue.requests[0]?.operation?.resources).toEqual([
      { group: 'apps', kind: 'Deployment', namespace: 'guestbook', name: 'guestbook-ui' },
    ]);
    expect(h.fake.calls('chat.postMessage')).toHaveLength(1);
  });

  it('when --revision is given for an Application with a local folder as its source, then it is refused as the CLI refuses it, for /sync and /sync diff', async () => {
    const describe = h.catalog.describe;
    h.catalog.describe = (name) =>
      name === 'guestbook'
        ? { ...describe(name)!, source: { repoURL: '', path: 'examples/guestbook', targetRevision: 'HEAD' } }
        : describe(name);

    const sync = await h.slack.sendCommand({ text: 'guestbook --revision main' });
    const diff = await h.slack.sendCommand({ text: 'diff guestbook --revision main' });
    const plain = await h.slack.sendCommand({ text: 'guestbook' });

    for (const refused of [sync, diff]) {
      expect(refused.json).toMatchObject({ response_type: 'ephemeral' });
      expect(String(refused.json?.text)).toContain(
        "--revision main: guestbook has a local folder as its source, which has no revisions. Drop --revision: the folder's content is what syncs.",
      );
    }
    expect(plain.json?.text).toContain('Got it: syncing');
    await h.fake.waitFor(() => h.queue.requests.length === 1);
    expect(h.queue.requests[0]?.operation?.revision).toBeUndefined();
  });

  it('when the queue is down, then the user is told it was not queued and the header says so', async () => {
    h.queue.setDown(true);

    await h.slack.sendCommand({ text: 'guestbook', responseUrl: h.fake.responseUrl('down') });

    const reply = await h.fake.waitFor(() => h.fake.responseUrlPosts('down')[0]);
    expect(reply.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('guestbook was not queued: Redis is unreachable'),
    });
    const header = h.fake.channelMessages(CHANNEL)[0]!;
    expect(text(header).split('\n')[0]).toBe(
      '❌ guestbook → staging  ·  Not queued: Redis is unreachable (connection refused)',
    );
    h.queue.setDown(false);
    await h.slack.sendCommand({ text: 'guestbook' });
    await h.fake.waitFor(() => h.queue.requests[0]);
  });

  it('when the bot cannot post in the channel, then the user is told how to fix it and nothing is queued', async () => {
    h.fake.failNext('chat.postMessage', 'not_in_channel');

    await h.slack.sendCommand({ text: 'guestbook', responseUrl: h.fake.responseUrl('nic') });

    const reply = await h.fake.waitFor(() => h.fake.responseUrlPosts('nic')[0]);
    expect(reply.body.text).toContain(
      'I could not post in this channel (I am not a member of this channel), so nothing was queued. Invite me with /invite @wavesync',
    );
    expect(h.queue.requests).toEqual([]);
  });
});

describe('src/slack/commands/start-sync-command under Slack rate limits', () => {
  let harness: Harness | undefined;
  afterEach(async () => harness?.close());

  it('when Slack rate-limits the headers of a burst of commands, then every command is acked, its header posted after Retry-After and its sync queued', async () => {
    // Slack's shape (one post per interval, 429 + Retry-After beyond) while the bot paces itself too fast for it:
    // only Retry-After gets the headers through. No burst and a 500 ms interval, so that eight headers meet a 429
    // however slowly a loaded machine handles the commands (with a burst of 3 and 200 ms, commands handled more
    // than 200 ms apart never met one, and the test failed on a busy machine).
    const h = await startHarness({ postIntervalMs: 500, burst: 1 }, undefined, { headerIntervalMs: 1 });
    harness = h;
    const apps = ['guestbook', 'helm-guestbook'];
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.slack.sendCommand({
          text: apps[i % 2]!,
          userId: `U${i}`,
          responseUrl: h.fake.responseUrl(`burst${i}`),
        }),
      ),
    );

    expect(sent.map((r) => r.status)).toEqual(Array(8).fill(200));
    for (const r of sent) expect(r.ackMs).toBeLessThan(3000);
    await h.fake.waitFor(() => h.queue.requests.length === 8 || undefined, 30_000);
    const limited = h.fake.calls('chat.postMessage').filter((c) => c.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const roots = h.fake.channelMessages(CHANNEL).filter((m) => !m.threadTs);
    expect(roots).toHaveLength(8);
    expect(new Set(h.queue.requests.map((r) => r.target!.threadTs))).toEqual(new Set(roots.map((m) => m.ts)));
    const replies = Array.from({ length: 8 }, (_, i) => h.fake.responseUrlPosts(`burst${i}`)).flat();
    expect(replies.map((p) => String(p.body.text))).not.toContainEqual(expect.stringContaining('could not'));
  });
});

describe('test/support/slack-reporter-factory', () => {
  it('reports a job into its target thread with the header drawn from the catalog; a job without target reports nothing', async () => {
    const h = await startHarness();
    const factory = createSlackReporterFactory({
      botToken: h.fake.botToken,
      apiUrl: h.fake.apiUrl,
      catalog: h.catalog,
      retries: 0,
      postIntervalMs: 20,
      headerIntervalMs: 20,
      coalesceMs: 5,
    });
    await h.slack.sendCommand({ text: 'guestbook' });
    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    const before = h.fake.calls().length;

    await feed(factory({ jobId: 'job-7', request: { ...request, target: undefined } }), prePostSyncEvents());
    const silent = h.fake.calls().length - before;
    await feed(factory({ jobId: 'job-7', request }), prePostSyncEvents(), 20);

    expect(silent).toBe(0);
    expect(h.fake.thread(CHANNEL, request.target!.threadTs).map(text).join('\n').split('\n')).toEqual(
      PRE_POST_SYNC_THREAD,
    );
    expect(text(h.fake.message(CHANNEL, request.target!.threadTs)!).split('\n')[0]).toBe(
      '✅ guestbook → staging  ·  Succeeded  ·  Healthy  ·  0:32',
    );
    await h.close();
  });
});
