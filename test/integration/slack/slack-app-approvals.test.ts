import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyVerdict } from '../../../src/environments/index.js';
import type { PersonSyncRequest } from '../../../src/requests/index.js';
import type { ApprovalGate, RequestPolicyQuery } from '../../../src/slack/ports.js';
import { CHANNEL, type Harness, startHarness } from '../../fakes/slack-app-harness.js';

/** An approval gate double: records what it was asked and answers `decision`. */
function recordingGate(decision: 'proceed' | 'pending') {
  const calls: { request: PersonSyncRequest; context: Parameters<ApprovalGate['gate']>[1] }[] = [];
  const gate: ApprovalGate = {
    async gate(request, context) {
      calls.push({ request, context });
      return decision;
    },
  };
  return { gate, calls };
}

/** A gate double that proceeds and whose policy allows every request with `verdict`; `checks` records what it asked. */
function allowingGate() {
  const verdict: PolicyVerdict = { ask: '{"application":"guestbook"}', decision: { allowed: true } };
  const { gate: recording, calls } = recordingGate('proceed');
  const checks: RequestPolicyQuery[] = [];
  const gate: ApprovalGate = {
    ...recording,
    async policy(request) {
      checks.push(request);
      return { allowed: true, verdict };
    },
  };
  return { gate, calls, checks, verdict };
}

describe('src/slack/slack-app with an approval gate', () => {
  let h: Harness;
  afterEach(async () => h.close());

  it('when the gate takes the request over, then the header is handed to it with the break-glass reason and nothing is queued', async () => {
    const { gate, calls } = recordingGate('pending');
    h = await startHarness({}, gate);

    await h.slack.sendCommand({ text: 'guestbook --break-glass “INC-42 hotfix”' });

    const call = await h.fake.waitFor(() => calls[0]);
    const header = h.fake.channelMessages(CHANNEL)[0]!;
    expect(call.context).toEqual({
      header: { channel: CHANNEL, ts: header.ts },
      breakGlassReason: 'INC-42 hotfix',
    });
    expect(call.request).toMatchObject({
      application: 'guestbook',
      target: { channel: CHANNEL, threadTs: header.ts },
    });
    expect(h.queue.requests).toEqual([]);
  });

  it('when the gate says proceed, then the sync is queued as usual', async () => {
    const { gate, calls } = recordingGate('proceed');
    h = await startHarness({}, gate);

    await h.slack.sendCommand({ text: 'guestbook' });

    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    expect(calls.map((c) => c.request)).toEqual([request]);
    expect(calls[0]!.context).toEqual({ header: { channel: CHANNEL, ts: request.target!.threadTs } });
  });

  it('the verdict of the policy check before the ack is handed to the gate, so the policy is not evaluated twice', async () => {
    const { gate, calls, checks, verdict } = allowingGate();
    h = await startHarness({}, gate);

    await h.slack.sendCommand({ text: 'guestbook' });

    const request = await h.fake.waitFor(() => h.queue.requests[0]);
    expect(checks.map((c) => c.application)).toEqual(['guestbook']);
    expect(calls[0]!.context).toEqual({
      header: { channel: CHANNEL, ts: request.target!.threadTs },
      verdict,
    });
  });

  it('/sync rollback and the Roll back button hand the verdict of their check before the ack to the gate: the history entry they return to is no new ask', async () => {
    const { gate, calls, checks, verdict } = allowingGate();
    h = await startHarness({}, gate);
    const finished = new Date().toISOString();
    const past = { application: 'guestbook', initiator: { userId: 'U0LEE', userName: 'lee' }, message: '' };
    const times = { startedAt: finished, finishedAt: finished, durationMs: 0 };
    h.queue.addHistory({
      ...past,
      ...times,
      id: 1,
      jobId: 'job-good',
      revision: 'a'.repeat(40),
      phase: 'Succeeded',
    });
    h.queue.addHistory({
      ...past,
      ...times,
      id: 2,
      jobId: 'job-bad',
      revision: 'b'.repeat(40),
      phase: 'Failed',
    });

    await h.slack.sendCommand({ text: 'rollback guestbook' });
    await h.fake.waitFor(() => h.queue.requests[0]);
    await h.slack.sendBlockAction({
      actionId: 'wavesync_rollback',
      value: JSON.stringify({ a: 'guestbook', j: 'job-bad' }),
      userId: 'U0SAM',
      userName: 'sam',
      messageTs: '1.000001',
      channelId: CHANNEL,
      responseUrl: h.fake.responseUrl('btn'),
    });
    await h.fake.waitFor(() => h.queue.requests[1]);

    expect(checks.map((c) => c.action)).toEqual(['rollback', 'rollback']);
    expect(calls.map((c) => c.request.rollback)).toEqual([
      { id: 1, revision: 'a'.repeat(40) },
      { id: 1, revision: 'a'.repeat(40) },
    ]);
    expect(calls.map((c) => c.context.verdict)).toEqual([verdict, verdict]);
  });

  it('a refusal before the ack is the ephemeral answer: no header, the gate never asked, nothing queued', async () => {
    const { gate: recording, calls } = recordingGate('proceed');
    const gate: ApprovalGate = {
      ...recording,
      policy: async () => ({
        allowed: false,
        reason: 'guestbook (production) can only be synced from <#C0DEPLOYS>.',
      }),
    };
    h = await startHarness({}, gate);

    const ack = await h.slack.sendCommand({ text: 'guestbook' });

    expect(JSON.stringify(ack)).toContain(
      '🚫 guestbook (production) can only be synced from <#C0DEPLOYS>. Nothing was queued.',
    );
    expect(h.fake.channelMessages(CHANNEL)).toEqual([]);
    expect(calls).toEqual([]);
    expect(h.queue.requests).toEqual([]);
  });
});
