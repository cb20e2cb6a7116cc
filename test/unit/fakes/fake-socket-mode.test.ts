/**
 * The fake Socket Mode server speaks Slack's protocol (https://docs.slack.dev/apis/events-api/using-socket-mode):
 * checked here with a plain `ws` client that acks (or does not) as the test says.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';

type Frame = Record<string, unknown>;

async function open(slack: FakeSlackApi, token: string): Promise<Frame> {
  const res = await fetch(`${slack.apiUrl}apps.connections.open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as Frame;
}

/** A client that records frames; `ack` decides per envelope whether to answer. */
async function connect(url: string, ack: (frame: Frame) => boolean) {
  const frames: Frame[] = [];
  const ws = new WebSocket(url);
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame;
    frames.push(frame);
    if (typeof frame.envelope_id === 'string' && ack(frame))
      ws.send(JSON.stringify({ envelope_id: frame.envelope_id, payload: {} }));
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, frames };
}

describe('FakeSocketMode', () => {
  let slack: FakeSlackApi | undefined;
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
  });

  it('when apps.connections.open is called with the app token, then it returns a one-time ws://127.0.0.1 URL; a bot token is refused', async () => {
    slack = await FakeSlackApi.start({ socketMode: true });
    const ok = await open(slack, slack.socketMode!.appToken);
    const bot = await open(slack, slack.botToken);

    expect(ok).toMatchObject({
      ok: true,
      url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/),
    });
    expect(bot).toEqual({ ok: false, error: 'not_allowed_token_type' });
    const client = await connect(String(ok.url), () => true);
    client.ws.close();
    await expect(connect(String(ok.url), () => true)).rejects.toThrow(/401/);
  });

  it('when the client connects, then hello comes first; an unacked envelope is re-sent with retry_attempt and retry_reason, and an ack settles it', async () => {
    slack = await FakeSlackApi.start({ socketMode: { ackTimeoutMs: 100 } });
    const socket = slack.socketMode!;
    const { url } = await open(slack, socket.appToken);
    let seen = 0;
    const client = await connect(String(url), () => ++seen >= 3);

    const delivery = await socket.sendCommand({ text: 'guestbook' });

    expect(client.frames[0]).toMatchObject({
      type: 'hello',
      num_connections: 1,
      connection_info: { app_id: 'A0WAVESYNC' },
    });
    const envelopes = client.frames.slice(1);
    expect(envelopes.map((f) => [f.type, f.retry_attempt, f.retry_reason])).toEqual([
      ['slash_commands', undefined, undefined],
      ['slash_commands', 1, 'timeout'],
      ['slash_commands', 2, 'timeout'],
    ]);
    expect(new Set(envelopes.map((f) => f.envelope_id)).size).toBe(1);
    expect(envelopes[0]).toMatchObject({
      accepts_response_payload: true,
      payload: { command: '/sync', text: 'guestbook' },
    });
    expect(delivery.status).toBe(200);
    client.ws.close();
  });

  it('when no ack ever comes, then the delivery gives up after maxRetries with status 0', async () => {
    slack = await FakeSlackApi.start({ socketMode: { ackTimeoutMs: 50, maxRetries: 2 } });
    const socket = slack.socketMode!;
    const { url } = await open(slack, socket.appToken);
    const client = await connect(String(url), () => false);

    const delivery = await socket.sendBlockAction({ actionId: 'approve', messageTs: '1.000001' });

    expect(delivery.status).toBe(0);
    expect(socket.envelopes()[0]!.sends).toHaveLength(3);
    client.ws.close();
  });

  it('when refresh() is called, then the client gets disconnect refresh_requested, and envelopes wait for the next connection', async () => {
    slack = await FakeSlackApi.start({ socketMode: true });
    const socket = slack.socketMode!;
    const first = await connect(String((await open(slack, socket.appToken)).url), () => true);

    socket.refresh();
    const pending = socket.sendCommand({ text: 'rails' });
    await slack.waitFor(() => first.frames.some((f) => f.type === 'disconnect'));
    const second = await connect(String((await open(slack, socket.appToken)).url), () => true);
    const delivery = await pending;

    expect(first.frames.at(-1)).toMatchObject({ type: 'disconnect', reason: 'refresh_requested' });
    expect(first.frames.some((f) => f.type === 'slash_commands')).toBe(false);
    expect(second.frames.map((f) => f.type)).toEqual(['hello', 'slash_commands']);
    expect(delivery.status).toBe(200);
    first.ws.close();
    second.ws.close();
  });

  it('when no client is connected past the ack deadline, then the envelope counts as timed out: it arrives later with retry_attempt 1, or never', async () => {
    slack = await FakeSlackApi.start({ socketMode: { ackTimeoutMs: 100, maxRetries: 1 } });
    const socket = slack.socketMode!;

    const lost = await socket.sendCommand({ text: 'guestbook' });
    const late = socket.sendCommand({ text: 'rails' });
    await new Promise((r) => setTimeout(r, 150));
    const client = await connect(String((await open(slack, socket.appToken)).url), () => true);
    const delivered = await late;

    expect(lost.status).toBe(0);
    expect(client.frames.slice(1).map((f) => [f.type, f.retry_attempt, f.retry_reason])).toEqual([
      ['slash_commands', 1, 'timeout'],
    ]);
    expect(delivered.status).toBe(200);
    client.ws.close();
  });
});
