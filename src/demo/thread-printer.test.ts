import { afterEach, describe, expect, it } from 'vitest';
import { redisHelp } from './check-redis.js';
import { FakeSlackApi } from './fake-slack/fake-slack-api.js';
import { ThreadPrinter } from './thread-printer.js';

async function call(slack: FakeSlackApi, method: string, args: Record<string, unknown>) {
  const res = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as { ts?: string };
}

const section = (text: string) => [{ type: 'section', text: { type: 'mrkdwn', text } }];

describe('src/demo/thread-printer', () => {
  let slack: FakeSlackApi | undefined;
  afterEach(async () => {
    await slack?.close();
  });

  it('prints the header once, one line per header change, and each reply under its channel label', async () => {
    slack = await FakeSlackApi.start();
    const out: string[] = [];
    const printer = new ThreadPrinter(slack, {
      labels: { C1: 'guestbook' },
      users: { U1: 'pat' },
      write: (t) => out.push(t),
    });
    const root = await call(slack, 'chat.postMessage', {
      channel: 'C1',
      text: 'h',
      blocks: section('⏳ *guestbook* → staging · queued · <@U1>'),
    });
    await call(slack, 'chat.update', {
      channel: 'C1',
      ts: root.ts,
      text: 'h',
      blocks: section('🔄 *guestbook* → staging · Running'),
    });
    await call(slack, 'chat.update', {
      channel: 'C1',
      ts: root.ts,
      text: 'h',
      blocks: section('🔄 *guestbook* → staging · Running'),
    });
    await call(slack, 'chat.postMessage', {
      channel: 'C1',
      thread_ts: root.ts,
      text: 'r',
      blocks: section('▶ Sync · wave 0'),
    });
    await call(slack, 'chat.postMessage', {
      channel: 'C1',
      thread_ts: root.ts,
      reply_broadcast: true,
      text: '❌ Failed in 0:19',
    });

    printer.stop();

    expect(out.join('')).toBe(
      [
        '',
        '[guestbook] ⏳ guestbook → staging · queued · @pat',
        '[guestbook]   ⟳ header: 🔄 guestbook → staging · Running',
        '[guestbook]   ↳ ▶ Sync · wave 0',
        '[guestbook]   ↳ (also sent to the channel) ❌ Failed in 0:19',
        '',
      ].join('\n'),
    );
  });

  it('says exactly how to start a Redis when none answers', () => {
    const help = redisHelp('redis://127.0.0.1:6379', 'connect ECONNREFUSED 127.0.0.1:6379');

    expect(help).toContain(
      'No Redis answers at redis://127.0.0.1:6379 (connect ECONNREFUSED 127.0.0.1:6379)',
    );
    expect(help).toContain('apt-get install redis-server && redis-server --daemonize yes');
    expect(help).toContain('docker compose up -d redis');
  });
});
