import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotReplicatedError } from '../../../src/queue/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { CHANNEL, type Harness, startHarness } from '../../fakes/slack-app-harness.js';

const op = { prune: false, dryRun: false, syncOptions: [] };
const lee = { userId: 'U0LEE', userName: 'lee' };
const render = (body: Record<string, unknown> | undefined) =>
  renderBlocksAsText((body?.blocks ?? []) as Block[]);

describe('src/slack/slack-app subcommands and bad input', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  /** Send `/sync <text>`; return the ack body and, when the ack is empty, the response_url reply. */
  async function sync(
    text: string,
  ): Promise<{ ack: Record<string, unknown> | undefined; reply: () => Promise<Record<string, unknown>> }> {
    const id = `r${Math.random()}`;
    const res = await h.slack.sendCommand({ text, responseUrl: h.fake.responseUrl(id) });
    expect(res.status).toBe(200);
    expect(res.ackMs).toBeLessThan(3000);
    return {
      ack: res.json,
      reply: async () => (await h.fake.waitFor(() => h.fake.responseUrlPosts(id)[0])).body,
    };
  }

  function expectNothingQueued() {
    expect(h.queue.requests).toEqual([]);
    expect(h.fake.calls('chat.postMessage')).toEqual([]);
  }

  it('when /sync carries thousands of characters, then it is still answered within 3 s, the echo cut short', async () => {
    for (const text of [
      'x'.repeat(3500),
      `guestbook --revision ${'r'.repeat(3500)}`,
      `delete ${'d'.repeat(3500)}`,
    ]) {
      const { ack } = await sync(text);
      const shown = render(ack);
      expect(shown.length).toBeLessThan(3200);
      expect(shown).toMatch(/No application named|is not a branch, tag or commit|cut to fit Slack/);
    }
    expectNothingQueued();
  });

  it.each([
    [
      'gustbook',
      'No application named "gustbook". Did you mean guestbook? · /sync apps lists them.\nUsage: /sync <app> [--revision REV] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]',
    ],
    [
      'guestbook --purne',
      'Unknown flag --purne. Did you mean --prune? Flags: --revision REV · --prune · --dry-run · --resource GROUP:KIND:NAME',
    ],
    ['guestbook --revision', '--revision needs a value, e.g. --revision main.'],
    ['guestbook --prune=yes', '--prune takes no value.'],
    ['guestbook --revision ../etc', '../etc is not a branch, tag or commit.'],
    [
      'guestbook --resource Deployment/web',
      'Bad --resource Deployment/web: use GROUP:KIND:NAME or GROUP:KIND:NAMESPACE/NAME with Kubernetes names',
    ],
    ['guestbook helm-guestbook', 'Unexpected helm-guestbook: /sync takes one application and flags.'],
    ['', 'Which application should I sync? · /sync apps lists them, /sync help shows everything.'],
    ['--prune', 'Name the application first, then flags: /sync guestbook --prune.'],
  ])(
    'when /sync %j is typed, then an ephemeral explanation with the right form comes back and nothing is queued',
    async (text, first) => {
      const { ack } = await sync(text);

      expect(ack?.response_type).toBe('ephemeral');
      expect(render(ack).startsWith(first)).toBe(true);
      expect(render(ack)).toContain('Usage: /sync <app>');
      expectNothingQueued();
    },
  );

  it('/sync help lists every subcommand; /sync apps lists the catalog; extra words are refused', async () => {
    const help = render((await sync('help')).ack);
    const apps = render((await sync('apps')).ack);
    const appsExtra = render((await sync('apps now')).ack);

    expect(help).toContain('/sync status [app]');
    expect(help).toContain('/sync cancel <app>');
    expect(help).toContain('/sync history <app>');
    expect(apps).toBe(
      '2 Applications you can /sync:\n' +
        '• guestbook (staging) → in-cluster/guestbook · from https://github.com/argoproj/argocd-example-apps#pre-post-sync@HEAD\n' +
        '• helm-guestbook → in-cluster/helm-guestbook · from https://github.com/argoproj/argocd-example-apps#helm-guestbook',
    );
    expect(appsExtra).toBe('Unexpected now.\nUsage: /sync apps');
    expectNothingQueued();
  });

  it('/sync status shows every line; /sync status <app> one; unknown app and extra words are explained', async () => {
    h.queue.seed({ application: 'guestbook', operation: op, initiator: lee, target: undefined });
    h.queue.seed({
      application: 'guestbook',
      operation: { ...op, revision: 'v2' },
      initiator: lee,
      target: undefined,
    });

    const all = await sync('status');
    const one = await sync('status helm-guestbook');
    const unknown = await sync('status gustbook');
    const extra = await sync('status guestbook now');

    expect(all.ack).toBeUndefined();
    expect(render(await all.reply())).toBe(
      '🔄 guestbook · Running · requested by @U0LEE · job job-1\n⏳ guestbook · queued · 2nd in line · requested by @U0LEE · revision v2 · job job-2',
    );
    expect(render(await one.reply())).toBe(
      'Nothing is running, queued or waiting for approval for helm-guestbook.',
    );
    expect(render(unknown.ack)).toContain('No application named "gustbook". Did you mean guestbook?');
    expect(render(extra.ack)).toBe('Unexpected now.\nUsage: /sync status [app]');
  });

  it('/sync history <app> shows the last syncs; a missing or unknown app is explained', async () => {
    h.queue.addHistory({
      jobId: 'job-9',
      application: 'guestbook',
      initiator: lee,
      revision: 'main',
      phase: 'Succeeded',
      message: '',
      startedAt: '2026-11-29T13:00:00Z',
      finishedAt: '2026-11-29T13:01:07Z',
      durationMs: 67_000,
      health: { status: 'Healthy' },
    });

    const history = await sync('history guestbook');
    const missing = await sync('history');
    const unknown = await sync('history gustbook');

    expect(render(await history.reply())).toBe(
      'Last 1 syncs of guestbook:\n✅ 2026-11-29 13:01 UTC · Succeeded · Healthy · 1:07 · main · by @U0LEE',
    );
    expect(render(missing.ack)).toBe('Which application? Name one.\nUsage: /sync history <app>');
    expect(render(unknown.ack)).toContain('Did you mean guestbook?');
  });

  it('/sync cancel <app> terminates the running sync (its worker updates the header); with nothing left it says so', async () => {
    await sync('guestbook');
    await h.fake.waitFor(() => h.queue.requests[0]);

    const cancelRunning = await sync('cancel guestbook');
    const cancelNone = await sync('cancel guestbook');

    expect(render(await cancelRunning.reply())).toBe(
      'Cancelling the running sync of guestbook; its thread will show where it stopped.',
    );
    expect(render(await cancelNone.reply())).toBe(
      'Nothing to cancel: no sync of guestbook is running or queued.',
    );
    // The second finds nothing in the line, so it cancels nothing.
    expect(h.queue.cancels).toEqual([
      { application: 'guestbook', by: { userId: 'U0PAT', userName: 'pat' }, jobId: 'job-1' },
    ]);
    expect(h.fake.calls('chat.update')).toEqual([]);
  });

  it('when no Redis replica confirms a Cancel click, then neither the clicker nor the header is told it was cancelled: the clicker learns it was not recorded', async () => {
    // The barrier's answer when WAIT 1 timed out (its real WAIT runs on Sentinel in test/integration/approvals/durable-clicks.test.ts).
    const unconfirmed = new NotReplicatedError(0, { replicas: 1, timeoutMs: 1000 });
    const d = await startHarness({}, undefined, { durable: { confirm: () => Promise.reject(unconfirmed) } });
    try {
      await cancelUnconfirmed(d);
    } finally {
      await d.close();
    }
  });

  async function cancelUnconfirmed(h: Harness): Promise<void> {
    h.queue.seed({ application: 'guestbook', operation: op, initiator: lee, target: undefined });
    const job = h.queue.seed({ application: 'guestbook', operation: op, initiator: lee, target: undefined });

    const res = await h.slack.sendBlockAction({
      actionId: 'wavesync_cancel',
      value: job.jobId,
      userId: 'U0SAM',
      userName: 'sam',
      messageTs: '1.000001',
      channelId: CHANNEL,
      responseUrl: h.fake.responseUrl('btn'),
    });

    expect(res.status).toBe(200);
    const told = await h.fake.waitFor(() => h.fake.calls('chat.postEphemeral')[0]);
    expect(told.args).toMatchObject({ channel: CHANNEL, user: 'U0SAM' });
    expect(told.args.text).toMatch(/^⚠️ Your click was not recorded: it could not be confirmed as stored/);
    expect(h.fake.responseUrlPosts('btn')).toEqual([]);
    expect(h.fake.calls('chat.update')).toEqual([]);
  }

  it('/sync cancel without an app, with an unknown app, or when the queue is down, is explained', async () => {
    const missing = await sync('cancel');
    const unknown = await sync('cancel gustbook');
    h.queue.setDown(true);
    const down = await sync('cancel guestbook');

    expect(render(missing.ack)).toBe(
      'Which application? Name the one to cancel.\nUsage: /sync cancel <app> ["reason"]',
    );
    expect(render(unknown.ack)).toContain('Did you mean guestbook?');
    expect(render(await down.reply())).toBe(
      '❌ I could not reach the sync queue: Redis is unreachable (connection refused). Try again in a minute.',
    );
  });

  it('the header Cancel button cancels that job as the clicking user and marks the header', async () => {
    const running = h.queue.seed({
      application: 'guestbook',
      operation: op,
      initiator: lee,
      target: undefined,
    });
    await sync('guestbook');
    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    const waiting = (await h.queue.applicationStatus('guestbook'))[1]!;

    const res = await h.slack.sendBlockAction({
      actionId: 'wavesync_cancel',
      value: waiting.jobId,
      userId: 'U0SAM',
      userName: 'sam',
      messageTs: request.target!.threadTs,
      responseUrl: h.fake.responseUrl('btn'),
    });

    expect(res.status).toBe(200);
    expect((await h.fake.waitFor(() => h.fake.responseUrlPosts('btn')[0])).body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Cancelled the queued sync of guestbook; it will not run.',
    });
    expect(h.queue.cancels).toEqual([
      { application: 'guestbook', by: { userId: 'U0SAM', userName: 'sam' }, jobId: waiting.jobId },
    ]);
    expect(
      renderBlocksAsText(h.fake.message(CHANNEL, request.target!.threadTs)!.blocks as Block[]).split('\n')[0],
    ).toBe('🚫 guestbook → staging  ·  Cancelled by @U0SAM');
    expect((await h.queue.jobStatus(running.jobId))?.state).toBe('active');
  });
});
