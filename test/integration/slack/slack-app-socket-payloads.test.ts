/**
 * Malformed Socket Mode traffic against the real Bolt SocketModeReceiver (over a real WebSocket to the fake Slack):
 * an `events_api` envelope without `payload.event` (the Socket Mode client would throw on it outside any handler)
 * is dropped; an envelope whose payload is malformed is acked (Slack must not send it again) and nothing is done;
 * the next well-formed command is answered as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockActionPayload } from '../../../src/demo/fake-slack/slack-client.js';
import { createLogger } from '../../../src/logger.js';
import { CANCEL_ACTION_ID } from '../../../src/slack/messages/sync-header-blocks.js';
import { createSlackApp, type SlackApp } from '../../../src/slack/slack-app.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { InMemorySyncQueue } from '../../fakes/in-memory-sync-queue.js';
import { APPS, catalogOf } from '../../fakes/slack-app-harness.js';

let fake: FakeSlackApi;
let app: SlackApp;
const queue = new InMemorySyncQueue();

beforeAll(async () => {
  fake = await FakeSlackApi.start({ socketMode: { ackTimeoutMs: 2000, maxRetries: 0 } });
  app = createSlackApp({
    botToken: fake.botToken,
    signingSecret: '',
    appToken: fake.socketMode!.appToken,
    apiUrl: fake.apiUrl,
    port: 0,
    clientRetries: 0,
    deps: { queue, catalog: catalogOf(APPS), logger: createLogger({ level: 'silent' }) },
  });
  await app.start();
  await fake.socketMode!.waitForConnection();
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

const click = (change: (p: Record<string, unknown>) => void) => {
  const payload = blockActionPayload(
    { actionId: CANCEL_ACTION_ID, value: 'job-1', messageTs: '1.000001' },
    1,
  );
  change(payload);
  return payload;
};

describe('src/slack/slack-app in Socket Mode, given malformed envelopes', () => {
  it('drops an events_api envelope without an event, acks malformed payloads doing nothing, and still answers a command', async () => {
    const socket = fake.socketMode!;
    socket.sendText(JSON.stringify({ type: 'events_api', envelope_id: 'e-1', payload: {} }));
    socket.sendText('{not json');

    const acks = await Promise.all([
      socket.sendEnvelope(
        'interactive',
        click((p) => (p.actions = null)),
      ),
      socket.sendEnvelope('interactive', [1, 2, 3]),
      socket.sendEnvelope(
        'interactive',
        click((p) => ((p.user as { id: string }).id = '<!channel>')),
      ),
      socket.sendEnvelope('slash_commands', { command: '/sync', text: 'help' }),
    ]);

    expect(acks.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(queue.cancels).toEqual([]);
    expect(fake.calls().filter((c) => c.method.startsWith('chat.'))).toEqual([]);
    const help = await socket.sendCommand({ text: 'help' });
    expect(help.status).toBe(200);
    expect(help.body).toContain('/sync');
  });
});
