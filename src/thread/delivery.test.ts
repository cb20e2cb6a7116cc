/**
 * The thread's delivery policy over the chat port's failures (ChatError), with no chat at all: what each kind of
 * failure makes it do. The Slack side (429, 5xx, `{ok:false}` from the fake Slack) is in
 * test/integration/thread/sync-thread-reporter.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ChannelPacer } from './channel-pacer.js';
import { ChatError, type ChatFailure, notStored } from './chat.js';
import { deliver } from './delivery.js';

const CHANNEL = 'C0THREAD';

/** A call that fails with `failures` in turn, then answers 'ts-1'; `calls` counts its attempts. */
function callFailing(...failures: (ChatFailure | Error)[]) {
  const state = { calls: 0 };
  const call = async () => {
    const failure = failures[state.calls++];
    if (failure instanceof Error) throw failure;
    if (failure) throw new ChatError(failure, `failure ${state.calls}`);
    return 'ts-1';
  };
  return { call, state };
}

describe('deliver: the thread delivery policy over ChatError', () => {
  it('when the chat is rate limited, then the channel stays closed for its Retry-After and the call is tried again', async () => {
    const pacer = new ChannelPacer(0);
    const { call, state } = callFailing({ kind: 'rate-limited', retryAfterMs: 80 });
    const started = Date.now();

    const result = await deliver(call, { channel: CHANNEL, pacer, what: 'thread reply' });

    expect(result).toEqual({ ok: true, value: 'ts-1', attempts: 2 });
    expect(state.calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('when the chat is unreachable, then the call is tried again after a backoff', async () => {
    const { call } = callFailing({ kind: 'unreachable' }, { kind: 'unreachable' });

    const result = await deliver(call, {
      channel: CHANNEL,
      pacer: new ChannelPacer(0),
      what: 'thread reply',
    });

    expect(result).toEqual({ ok: true, value: 'ts-1', attempts: 3 });
  });

  it("when the chat refuses, then it is not tried again and the chat's reason is the error", async () => {
    const warned: object[] = [];
    const { call, state } = callFailing({ kind: 'refused' });

    const result = await deliver(call, {
      channel: CHANNEL,
      pacer: new ChannelPacer(0),
      what: 'thread reply',
      logger: { warn: (obj) => void warned.push(obj) },
    });

    expect(result).toEqual({ ok: false, attempts: 1, error: 'failure 1' });
    expect(state.calls).toBe(1);
    expect(warned).toEqual([{ channel: CHANNEL, what: 'thread reply', error: 'failure 1', attempts: 1 }]);
  });

  it('when the call fails with an error that is not the chat’s, then it is not tried again', async () => {
    const { call, state } = callFailing(new Error('thread delivery taken over by another deliverer'));

    const result = await deliver(call, {
      channel: CHANNEL,
      pacer: new ChannelPacer(0),
      what: 'thread reply',
    });

    expect(result).toEqual({
      ok: false,
      attempts: 1,
      error: 'thread delivery taken over by another deliverer',
    });
    expect(state.calls).toBe(1);
  });

  it('when the chat is unreachable past the retention, then the call is given up', async () => {
    const { call, state } = callFailing(
      ...Array.from({ length: 10 }, () => ({ kind: 'unreachable' }) as const),
    );

    const result = await deliver(call, {
      channel: CHANNEL,
      pacer: new ChannelPacer(0),
      what: 'thread reply',
      retentionMs: 100,
    });

    expect(result.ok).toBe(false);
    expect(state.calls).toBe(1);
  });
});

describe('notStored: whether a failed post may still be in the thread', () => {
  it('a rate-limited or refused call stored nothing; an unreachable chat or any other error may have', () => {
    expect(notStored(new ChatError({ kind: 'rate-limited', retryAfterMs: 1000 }, 'ratelimited'))).toBe(true);
    expect(notStored(new ChatError({ kind: 'refused' }, 'not_in_channel'))).toBe(true);
    expect(notStored(new ChatError({ kind: 'unreachable' }, 'fetch failed'))).toBe(false);
    expect(notStored(new Error('socket hang up'))).toBe(false);
  });
});
