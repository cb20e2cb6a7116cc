import { verifySlackRequest } from '@slack/bolt';
import { ErrorCode, WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { signSlackRequest } from '../../fakes/slack-client.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('test/fakes/fake-slack-api', () => {
  let fake: FakeSlackApi;
  afterEach(async () => fake?.close());

  function clientFor(f: FakeSlackApi, token = f.botToken): WebClient {
    return new WebClient(token, {
      slackApiUrl: f.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  }

  it('records postMessage/update through the real WebClient and keeps the thread', async () => {
    fake = await FakeSlackApi.start();
    const client = clientFor(fake);

    const root = await client.chat.postMessage({ channel: 'C1', text: 'root', blocks: [section('*root*')] });
    await client.chat.postMessage({
      channel: 'C1',
      text: 'reply',
      thread_ts: root.ts!,
      reply_broadcast: true,
    });
    await client.chat.update({ channel: 'C1', ts: root.ts!, text: 'done', blocks: [section('done')] });

    expect(fake.calls().map((c) => c.method)).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
    ]);
    expect(fake.calls('chat.postMessage')[0]!.args.blocks).toEqual([section('*root*')]);
    expect(fake.message('C1', root.ts!)).toMatchObject({
      text: 'done',
      updates: 1,
      blocks: [section('done')],
    });
    expect(fake.thread('C1', root.ts!)).toMatchObject([{ text: 'reply', broadcast: true }]);
    expect(fake.channelMessages('C1').map((m) => m.text)).toEqual(['done', 'reply']);
  });

  it('answers auth.test, users.info, usergroups.users.list, conversations.info and getPermalink', async () => {
    fake = await FakeSlackApi.start({
      users: [{ id: 'U1', name: 'pat', isAdmin: true }],
      usergroups: { S1: ['U1', 'U2'] },
    });
    const client = clientFor(fake);
    const root = await client.chat.postMessage({ channel: 'C1', text: 'x' });

    expect(await client.auth.test()).toMatchObject({ ok: true, user_id: 'U0BOT', bot_id: 'B0BOT' });
    expect((await client.users.info({ user: 'U1' })).user).toMatchObject({ name: 'pat', is_admin: true });
    expect((await client.usergroups.users.list({ usergroup: 'S1' })).users).toEqual(['U1', 'U2']);
    expect((await client.conversations.info({ channel: 'C1' })).channel).toMatchObject({ id: 'C1' });
    expect((await client.chat.getPermalink({ channel: 'C1', message_ts: root.ts! })).permalink).toContain(
      '/archives/C1/p',
    );
    await expect(client.users.info({ user: 'U9' })).rejects.toMatchObject({
      data: { error: 'user_not_found' },
    });
    await expect(client.usergroups.users.list({ usergroup: 'S9' })).rejects.toMatchObject({
      data: { error: 'no_such_subteam' },
    });
  });

  it('rejects a wrong token with invalid_auth', async () => {
    fake = await FakeSlackApi.start();

    await expect(
      clientFor(fake, 'xoxb-wrong').chat.postMessage({ channel: 'C1', text: 'x' }),
    ).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { error: 'invalid_auth' },
    });
  });

  it.each([
    [
      '51 blocks',
      Array.from({ length: 51 }, () => section('x')),
      '[ERROR] no more than 50 items allowed [json-pointer:/blocks]',
    ],
    [
      'a 3,001-character section',
      [section('y'.repeat(3001))],
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
    ],
    [
      'an empty section',
      [section('')],
      '[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text/text]',
    ],
    [
      'an unknown block type',
      [{ type: 'banner' }],
      '[ERROR] unsupported type `banner` [json-pointer:/blocks/0/type]',
    ],
  ])('rejects %s with invalid_blocks and records nothing in the channel', async (_name, blocks, problem) => {
    fake = await FakeSlackApi.start();

    const result = clientFor(fake).chat.postMessage({ channel: 'C1', text: 'x', blocks: blocks as never });

    await expect(result).rejects.toMatchObject({
      data: { error: 'invalid_blocks', response_metadata: { messages: [problem] } },
    });
    expect(fake.channelMessages('C1')).toEqual([]);
  });

  it('rejects text over 40,000 characters with msg_too_long', async () => {
    fake = await FakeSlackApi.start();

    await expect(
      clientFor(fake).chat.postMessage({ channel: 'C1', text: 'z'.repeat(40_001) }),
    ).rejects.toMatchObject({
      data: { error: 'msg_too_long' },
    });
  });

  it('answers HTTP 429 with Retry-After when a channel is posted to faster than allowed, per channel', async () => {
    fake = await FakeSlackApi.start({ postIntervalMs: 1000, burst: 2 });
    const client = clientFor(fake);

    await client.chat.postMessage({ channel: 'C1', text: '1' });
    await client.chat.postMessage({ channel: 'C1', text: '2' });
    const third = client.chat.postMessage({ channel: 'C1', text: '3' });

    await expect(third).rejects.toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 1 });
    await client.chat.postMessage({ channel: 'C2', text: 'other channel' });
    expect(fake.calls('chat.postMessage').map((c) => c.status)).toEqual([200, 200, 429, 200]);
  });

  it('records response_url posts by id', async () => {
    fake = await FakeSlackApi.start();

    const res = await fetch(fake.responseUrl('cmd-1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi', response_type: 'ephemeral' }),
    });

    expect(res.status).toBe(200);
    expect(fake.responseUrlPosts('cmd-1')).toMatchObject([
      { body: { text: 'hi', response_type: 'ephemeral' } },
    ]);
  });

  it('fails the next call of a method with an injected Slack error', async () => {
    fake = await FakeSlackApi.start();
    fake.failNext('chat.postMessage', 'not_in_channel');

    await expect(clientFor(fake).chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
    await expect(clientFor(fake).chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe('test/fakes/slack-client signSlackRequest', () => {
  it('produces signatures Bolt verifies, and Bolt rejects a different secret', () => {
    const ts = Math.floor(Date.now() / 1000);
    const body = 'command=%2Fsync&text=guestbook';
    const headers = {
      'x-slack-signature': signSlackRequest('s3cret', ts, body),
      'x-slack-request-timestamp': ts,
    };

    expect(() => verifySlackRequest({ signingSecret: 's3cret', body, headers })).not.toThrow();
    expect(() => verifySlackRequest({ signingSecret: 'other', body, headers })).toThrow(/signature/i);
  });
});

describe('test/fakes/fake-slack-api content rules', () => {
  it('rejects a message with neither text nor blocks with no_text, as Slack does', async () => {
    const fake = await FakeSlackApi.start();
    const client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });

    await expect(client.chat.postMessage({ channel: 'C1', text: '', blocks: [] })).rejects.toMatchObject({
      data: { error: 'no_text' },
    });
    await fake.close();
  });

  it("opens a modal only with a fresh, unused trigger_id and Slack's modal limits; views.update replaces it", async () => {
    const fake = await FakeSlackApi.start();
    const client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const modal = (title: string, blocks: unknown[]) => ({
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: title },
      blocks: blocks as never[],
    });
    const trigger = `trigger.${Date.now()}.1`;
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: { data?: { error?: string } }) => error.data?.error,
      );

    expect(
      await failure(
        client.views.open({ trigger_id: trigger, view: modal('A title over 24 characters', [section('x')]) }),
      ),
    ).toBe('invalid_arguments');
    const tooMany = Array.from({ length: 101 }, (_, i) => section(`line ${i}`));
    expect(await failure(client.views.open({ trigger_id: trigger, view: modal('Diff', tooMany) }))).toBe(
      'invalid_arguments',
    );
    const opened = await client.views.open({
      trigger_id: trigger,
      view: modal('Diff', tooMany.slice(0, 100)),
    });
    expect(
      await failure(client.views.open({ trigger_id: trigger, view: modal('Diff', [section('x')]) })),
    ).toBe('exchanged_trigger_id');
    const stale = `trigger.${Date.now() - 3_001}.2`;
    expect(await failure(client.views.open({ trigger_id: stale, view: modal('Diff', [section('x')]) }))).toBe(
      'expired_trigger_id',
    );
    expect(
      await failure(client.views.open({ trigger_id: 'made-up', view: modal('Diff', [section('x')]) })),
    ).toBe('invalid_trigger_id');

    await client.views.update({ view_id: opened.view!.id!, view: modal('Diff', [section('done')]) });
    expect(fake.views()).toMatchObject([
      { id: opened.view!.id, updates: 1, view: { blocks: [section('done')] } },
    ]);
  });

  it('files.uploadV2 through the real WebClient: URL, upload, completion in a thread; the three steps checked as Slack does', async () => {
    const fake = await FakeSlackApi.start();
    const client = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const root = await client.chat.postMessage({ channel: 'C1', text: 'root' });
    const content = `--- a\n+++ b\n${'+ line é\n'.repeat(2000)}`;

    const uploaded = await client.filesUploadV2({
      channel_id: 'C1',
      thread_ts: root.ts!,
      content,
      filename: 'guestbook.diff',
      title: 'Diff of guestbook',
      initial_comment: 'the full diff',
    });

    expect(fake.calls().map((c) => c.method)).toEqual([
      'chat.postMessage',
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
    ]);
    expect(fake.calls('files.getUploadURLExternal')[0]?.args).toMatchObject({
      filename: 'guestbook.diff',
      length: String(Buffer.byteLength(content)),
    });
    const [file] = fake.files();
    expect(file).toMatchObject({
      filename: 'guestbook.diff',
      title: 'Diff of guestbook',
      channel: 'C1',
      threadTs: root.ts,
    });
    expect(file?.content).toBe(content);
    expect(JSON.stringify(uploaded)).toContain(file!.permalink);
    expect(fake.thread('C1', root.ts!).map((m) => m.text)).toEqual(['the full diff']);

    // Slack's checks: no filename or no length; completing a file never uploaded; a thread that does not exist.
    await expect(client.files.getUploadURLExternal({ filename: '', length: 3 })).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
    await expect(client.files.getUploadURLExternal({ filename: 'x.txt', length: 0 })).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
    const { file_id } = await client.files.getUploadURLExternal({ filename: 'x.txt', length: 3 });
    await expect(
      client.files.completeUploadExternal({ files: [{ id: file_id! }], channel_id: 'C1' }),
    ).rejects.toMatchObject({ data: { error: 'file_not_found' } });
    await expect(
      client.filesUploadV2({ channel_id: 'C1', thread_ts: '1.000001', content: 'abc', filename: 'y.txt' }),
    ).rejects.toMatchObject({ data: { error: 'invalid_thread_ts' } });
    await fake.close();
  });
});
