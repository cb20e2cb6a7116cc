/**
 * Cancel a sync (from `/sync cancel <app> ["reason"]` or the header's Cancel button) and say what happened. Who
 * asks is checked first (the `cancel` permission: by default the sync's requester, the environment's approvers and
 * whoever may sync the Application; permissions.ts); a refusal is ephemeral and changes nothing. An allowed cancel
 * is audited (`cancelled`, with the reason). A waiting job never reaches a worker, so its header is marked
 * "Cancelled by @x" here; a running job's worker terminates it and its reporter says who cancelled it.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Initiator } from '../../domain/index.js';
import { type SlackMessage, textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { JobStatus } from '../ports.js';
import { permitted } from './authorize.js';
import { ephemeral, type SlackAppDeps } from './command-context.js';
import { headerViewOf } from './header-view.js';

/** Longest cancel reason, in characters (it goes into the header, the thread and the audit log). */
export const MAX_CANCEL_REASON = 300;

export interface CancelRequest {
  application: string;
  /** The job to cancel (the button's, or the Application's running / next one); undefined: nothing to cancel. */
  job: JobStatus | undefined;
  /** Who asks (the signed payload's user) and where. */
  by: Initiator;
  channel: string;
  reason?: string;
  /**
   * The message whose Cancel button was clicked: it must be the job's header (its report target), else the click
   * is refused as stale — checked after the permission, so nothing about the job is said to whoever may not cancel.
   */
  clicked?: { channel: string; ts: string };
}

/** Authorize, cancel, audit and answer (ephemeral). */
export async function cancelSync(
  deps: SlackAppDeps,
  client: WebClient,
  respond: RespondFn,
  request: CancelRequest,
): Promise<void> {
  const { application, job, by, channel, reason } = request;
  const reply = (message: SlackMessage) => respond({ ...ephemeral(message), replace_original: false });
  const app = `*${escapeMrkdwn(application)}*`;
  if (!job)
    return void (await reply(textMessage(`Nothing to cancel: no sync of ${app} is running or queued.`)));
  const ctx = {
    action: 'cancel' as const,
    application,
    userId: by.userId,
    channel,
    requesterId: job.initiator.userId,
  };
  if (!(await permitted(deps, ctx, respond))) return;
  const { clicked } = request;
  if (clicked && (job.target?.channel !== clicked.channel || job.target.threadTs !== clicked.ts)) {
    return void (await reply(
      textMessage(`This Cancel button is not on the header of that sync of ${app}; nothing was cancelled.`),
    ));
  }
  const result = await deps.queue.cancel(application, { ...by, ...(reason ? { reason } : {}) }, job.jobId);
  if (result.cancelled === 'none') {
    return void (await reply(textMessage(`Nothing to cancel: that sync of ${app} already ended.`)));
  }
  await deps.approvalFlow
    ?.recordCancel({
      application,
      userId: by.userId,
      channel,
      jobId: job.jobId,
      ...(reason ? { reason } : {}),
    })
    .catch((err: unknown) => deps.logger?.warn({ err, jobId: job.jobId }, 'cancel not audited'));
  deps.logger?.info({ application, jobId: job.jobId, userId: by.userId, reason }, 'sync cancelled');
  if (result.cancelled === 'running') {
    return void (await reply(
      textMessage(`Cancelling the running sync of ${app}; its thread will show where it stopped.`),
    ));
  }
  await markHeaderCancelled(deps, client, job.jobId, by.userId, reason);
  await reply(textMessage(`Cancelled the queued sync of ${app}; it will not run.`));
}

async function markHeaderCancelled(
  deps: SlackAppDeps,
  client: WebClient,
  jobId: string,
  by: string,
  reason: string | undefined,
): Promise<void> {
  const job = await deps.queue.jobStatus(jobId);
  if (!job?.target) return;
  const state = { kind: 'cancelled' as const, by, ...(reason ? { reason } : {}) };
  const message = syncHeaderBlocks({ ...headerViewOf(deps.catalog, job), state });
  await client.chat
    .update({
      channel: job.target.channel,
      ts: job.target.threadTs,
      text: message.text,
      blocks: message.blocks,
    })
    .catch((err: unknown) => deps.logger?.warn({ err, jobId }, 'could not mark the header cancelled'));
}
