/**
 * Running a resource action from Slack (`/sync action` and the buttons of `/sync resources`), one path for both:
 * the `action` permission (the one authorization, permissions.ts) for the signed user and channel; where the
 * Application's environment says the action needs an approval (`resourceActions.<action>.requireApproval`, else its
 * `requireApproval`), what it would write is checked now (ResourceViews.plan: nothing written; a request that cannot
 * run is told to the user and audited) and an approval request is posted in the channel instead
 * (ApprovalFlow.gateResourceAction; approved, the approval flow runs it once and posts the result in that message's
 * thread). Otherwise the action runs now (src/resource-actions: only an offered, enabled action; server-side apply),
 * is written to the audit log (`resource-action`: who, what, result), and its result is posted in the channel for
 * everyone; a failure is told to the user only, and audited too.
 */
import type { RespondFn } from '@slack/bolt';
import type { ResourceViews } from '../../resource-actions/index.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn, mention } from '../messages/format.js';
import { permitted } from './authorize.js';
import { ephemeral, type SlackAppDeps } from './command-context.js';

export interface ResourceActionRun {
  application: string;
  action: string;
  target: string;
  params: Readonly<Record<string, string>>;
  userId: string;
  /** Slack user name, as the approval request records the requester. */
  userName?: string;
  channel: string;
  /** Idempotency key of the Slack delivery (its trigger id): a redelivery posts no second approval request. */
  requestKey: string;
  fromBotMessage?: boolean;
}

function describeAction(run: Pick<ResourceActionRun, 'action' | 'target' | 'params'>): string {
  const params = Object.entries(run.params).map(([k, v]) => `${k}=${v}`);
  return [run.action, run.target.replace(/^\//, ''), ...params].join(' ');
}

export async function runResourceActionFromSlack(
  deps: SlackAppDeps,
  respond: RespondFn,
  run: ResourceActionRun,
): Promise<void> {
  const views: ResourceViews | undefined = deps.resourceViews;
  const tellUser = (text: string) => respond({ ...ephemeral(textMessage(text)), replace_original: false });
  if (!views)
    return void (await tellUser('Resource actions are not available: this bot has no cluster access.'));
  const allowed = await permitted(
    deps,
    {
      action: 'action',
      application: run.application,
      userId: run.userId,
      channel: run.channel,
      ...(run.fromBotMessage ? { fromBotMessage: true } : {}),
    },
    respond,
  );
  if (!allowed) return;
  const what = describeAction(run);
  const audit = (phase: 'Succeeded' | 'Failed', reason: string) =>
    deps.actionAudit
      ?.append({
        type: 'resource-action',
        application: run.application,
        userId: run.userId,
        channel: run.channel,
        resourceAction: what,
        phase,
        reason,
      })
      .catch((err: unknown) => deps.logger?.warn({ err }, 'resource action not audited'));
  const flow = deps.approvalFlow;
  if (flow?.gateResourceAction && flow.resourceActionNeedsApproval?.(run.application, run.action)) {
    const target = run.target.startsWith('/') ? run.target.slice(1) : run.target;
    let plan: string[];
    try {
      plan = (
        await views.plan({ application: run.application, action: run.action, target, params: run.params })
      ).changes;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await audit('Failed', message);
      return void (await tellUser(
        `⚠️ ${escapeMrkdwn(what)} on ${escapeMrkdwn(run.application)} cannot run: ${escapeMrkdwn(message)}`,
      ));
    }
    const gated = await flow.gateResourceAction({
      application: run.application,
      action: run.action,
      target,
      params: run.params,
      initiator: { userId: run.userId, userName: run.userName ?? run.userId },
      channel: run.channel,
      requestKey: run.requestKey,
      plan,
    });
    if (gated.kind === 'refused') return void (await tellUser(`🚫 ${escapeMrkdwn(gated.reason)}`));
    if (gated.kind === 'approval-posted') {
      return void (await tellUser(
        `🛡 *${escapeMrkdwn(what)}* on *${escapeMrkdwn(run.application)}* needs an approval: the request is posted in this channel; it runs once approved.`,
      ));
    }
  } else if (!flow?.gateResourceAction && deps.approvals?.needsApproval?.(run.application)) {
    const reason =
      `${run.application} is in an environment that requires approval, and resource actions cannot be approved ` +
      'in wavesync yet: nothing was done. Use your change process (kubectl) for it.';
    await audit('Failed', reason);
    return void (await tellUser(`🚫 ${escapeMrkdwn(reason)}`));
  }
  try {
    const target = run.target.startsWith('/') ? run.target.slice(1) : run.target;
    const outcome = await views.run({
      application: run.application,
      action: run.action,
      target,
      params: run.params,
    });
    const done = outcome.changes.join(', ');
    await audit('Succeeded', done);
    await respond({
      response_type: 'in_channel',
      replace_original: false,
      ...textMessage(
        `⚙️ ${mention(run.userId)} ran *${escapeMrkdwn(run.action)}* on ${escapeMrkdwn(outcome.target)} of *${escapeMrkdwn(run.application)}*: ${escapeMrkdwn(done)}`,
      ),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await audit('Failed', message);
    await tellUser(
      `⚠️ ${escapeMrkdwn(what)} on ${escapeMrkdwn(run.application)} failed: ${escapeMrkdwn(message)}`,
    );
  }
}
