import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import { DEPLOYS, type FlowEnv, FREEZE_ENDS, SATURDAY, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;

beforeEach(async () => {
  env = await startFlowEnv(redis);
});
afterEach(() => env.close());
afterAll(() => redis.quit());

/** `/sync <text>`; resolves with the header once the flow has rendered it (approval request or refusal). */
async function sync(text: string, options: { userId?: string; channelId?: string } = {}) {
  const channel = options.channelId ?? DEPLOYS;
  const before = env.slack.channelMessages(channel).length;
  await env.bot.sendCommand({ text, userId: options.userId ?? 'U0PAT', channelId: channel });
  return env.slack.waitFor(() => {
    const header = env.slack.channelMessages(channel).slice(before)[0];
    return header && header.updates > 0 ? header : undefined;
  });
}

const ephemeralTexts = () => env.slack.calls('chat.postEphemeral').map((c) => c.args.text);

/**
 * `/sync <text>` that the policy refuses: resolves with the ephemeral ack (the only answer: no "Got it", nothing
 * posted in any channel, nothing queued).
 */
async function refused(text: string, options: { channelId?: string } = {}): Promise<string> {
  const delivery = await env.bot.sendCommand({
    text,
    userId: 'U0PAT',
    channelId: options.channelId ?? DEPLOYS,
  });
  expect(delivery.json?.response_type).toBe('ephemeral');
  expect(env.slack.calls('chat.postMessage')).toEqual([]);
  expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  return String(delivery.json?.text ?? '');
}

describe('test/integration/approvals/approval-policy', () => {
  it('when a freeze window is active, then /sync is refused with when it reopens', async () => {
    env.clock.now = SATURDAY;

    const monday = new Date(FREEZE_ENDS).toISOString().slice(0, 10);
    const reason = `Sync of guestbook is frozen until Mon ${monday} 09:00 UTC (change freeze "weekend"). Break glass: /sync guestbook --break-glass "reason"`;
    expect(await refused('guestbook')).toBe(`🚫 ${reason} Nothing was queued.`);
  });

  it('when break-glass is given with a reason during a freeze, then approval is requested and the reason recorded', async () => {
    env.clock.now = SATURDAY;

    const header = await sync('guestbook --break-glass "payments outage hotfix"');

    expect(JSON.stringify(header.blocks)).toContain(
      'break-glass through freeze \\"weekend\\": payments outage hotfix',
    );
    const audit = await waitFor(async () => {
      const view = await env.approvals.audit('guestbook', 'U0SAM');
      return view.allowed && view.records.length > 0 ? view : undefined;
    });
    expect(audit).toMatchObject({
      allowed: true,
      records: [{ type: 'requested', breakGlass: 'payments outage hotfix', userId: 'U0PAT' }],
    });
  });

  it('when break-glass has no reason, then the command is refused before anything is posted', async () => {
    env.clock.now = SATURDAY;

    const delivery = await env.bot.sendCommand({
      text: 'guestbook --break-glass ""',
      userId: 'U0PAT',
      channelId: DEPLOYS,
    });

    expect(delivery.json?.text).toContain('--break-glass needs a reason');
    expect(env.slack.channelMessages(DEPLOYS)).toEqual([]);
  });

  it('when the revision is not allowed for production, then the refusal names the rule', async () => {
    expect(await refused('guestbook --revision feature/login')).toBe(
      '🚫 Revision feature/login is not allowed for production: allowedRevisions is main, v*. Nothing was queued.',
    );
  });

  it('when /sync comes from a channel the environment does not allow, then it is refused', async () => {
    expect(await refused('guestbook', { channelId: 'C0RANDOM' })).toBe(
      '🚫 guestbook (production) can only be synced from <#C0DEPLOYS>. Nothing was queued.',
    );
  });

  it('when what would be synced changes before approval, then the request is invalidated', async () => {
    const header = await sync('guestbook');
    const value = JSON.stringify(
      JSON.parse(
        (header.blocks as { type: string; elements?: { value?: string }[] }[]).find(
          (b) => b.type === 'actions',
        )?.elements?.[0]?.value ?? '{}',
      ),
    );
    await appendFile(path.join(env.appDir, 'guestbook-ui-svc.yaml'), '# changed\n  ');
    await appendFile(
      path.join(env.appDir, 'guestbook-ui-deployment.yaml'),
      '\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: extra }\n',
    );

    await env.bot.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: 'U0SAM',
      messageTs: header.ts,
      value,
      channelId: DEPLOYS,
    });

    await env.slack.waitFor(() => ephemeralTexts().length === 1);
    expect(ephemeralTexts()[0]).toMatch(
      /^What would be synced changed since the request \(revision local@[0-9a-f]{8} → local@[0-9a-f]{8}\); the request is invalidated\. Run \/sync guestbook again\.$/,
    );
    expect(env.slack.message(DEPLOYS, header.ts)?.text).toContain('Invalidated — run /sync guestbook again');
    expect(await env.queue.applicationStatus('guestbook')).toEqual([]);
  });

  it('when a non-approver asks for the audit log, then it is refused; approvers read it newest first', async () => {
    await refused('guestbook --revision feature/x');

    expect(await env.approvals.audit('guestbook', 'U0EVE')).toEqual({
      allowed: false,
      code: 'not_permitted',
      reason: 'Only <@U0SAM>, <@U0PAT>, <!subteam^S0SRE> may read the audit log of guestbook (production).',
    });
    const view = await env.approvals.audit('guestbook', 'U0LEE');
    expect(view).toMatchObject({
      allowed: true,
      records: [{ type: 'refused', userId: 'U0PAT', channel: DEPLOYS }],
    });
  });

  it('when an approver sends /sync audit, then the log comes back ephemerally; a non-approver is refused', async () => {
    await refused('guestbook --revision feature/x');

    await env.bot.sendCommand({
      text: 'audit guestbook',
      userId: 'U0LEE',
      responseUrl: env.slack.responseUrl('lee'),
    });
    await env.bot.sendCommand({
      text: 'audit guestbook',
      userId: 'U0EVE',
      responseUrl: env.slack.responseUrl('eve'),
    });

    const [lee] = await env.slack.waitFor(() =>
      env.slack.responseUrlPosts('lee').length ? env.slack.responseUrlPosts('lee') : undefined,
    );
    const [eve] = await env.slack.waitFor(() =>
      env.slack.responseUrlPosts('eve').length ? env.slack.responseUrlPosts('eve') : undefined,
    );
    expect(lee?.body).toMatchObject({
      response_type: 'ephemeral',
      text: '📜 Audit log of guestbook (newest first): 1 entry',
    });
    expect(JSON.stringify(lee?.body.blocks)).toContain(
      '*refused* <@U0PAT> — Revision feature/x is not allowed',
    );
    expect(eve?.body.text).toBe(
      'Only @U0SAM, @U0PAT, <!subteam^S0SRE> may read the audit log of guestbook (production).',
    );
  });
});
