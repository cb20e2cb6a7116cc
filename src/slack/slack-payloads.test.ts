import { describe, expect, it } from 'vitest';
import { blockActionPayload, slashCommandFields } from '../demo/fake-slack/slack-client.js';
import { slackPayloadChecker, socketEnvelopeProblem } from './slack-payloads.js';

const check = slackPayloadChecker({ command: '/sync', actionIds: ['wavesync_cancel'] });
const click = () =>
  blockActionPayload({ actionId: 'wavesync_cancel', value: 'j1', messageTs: '1.000001' }, 1);

describe('src/slack/slack-payloads', () => {
  it('passes what Slack sends for the command and the buttons, and its handshakes', () => {
    expect(check(slashCommandFields({ text: 'help' }, 1))).toMatchObject({ ok: true, kind: 'command' });
    expect(check(click())).toMatchObject({ ok: true, kind: 'block_actions' });
    expect(check({ ssl_check: '1', token: 'x' })).toMatchObject({ ok: true, kind: 'handshake' });
    expect(check({ type: 'url_verification', challenge: 'c' })).toMatchObject({
      ok: true,
      kind: 'handshake',
    });
  });

  it('names what is wrong', () => {
    const elsewhere = { ...click(), channel: { id: 'C0OTHER' } };
    const twice = { ...click(), actions: [click().actions, click().actions].flat() };

    expect(check(elsewhere)).toEqual({
      ok: false,
      problem: 'channel.id: channel.id differs from container.channel_id',
    });
    expect(check(twice)).toEqual({ ok: false, problem: 'actions: expected exactly one action' });
    expect(check({ ...slashCommandFields({ text: 'x' }, 1), command: '/deploy' })).toEqual({
      ok: false,
      problem: 'command: expected the command /sync',
    });
    expect(check(7)).toEqual({ ok: false, problem: 'the payload is a number, not an object' });
  });

  it('checks Socket Mode envelopes: control messages pass, data envelopes need an id and (events) an event', () => {
    expect(socketEnvelopeProblem('{"type":"hello"}')).toBeUndefined();
    expect(socketEnvelopeProblem('{"type":"interactive","envelope_id":"e1","payload":[1]}')).toBeUndefined();
    expect(socketEnvelopeProblem('{"type":"events_api","envelope_id":"e1","payload":{}}')).toBe(
      'payload.event: Invalid input: expected object, received undefined',
    );
    expect(socketEnvelopeProblem('{"type":"interactive","payload":{}}')).toMatch(/^envelope_id: /);
    expect(socketEnvelopeProblem('nope')).toBe('not JSON');
  });
});
