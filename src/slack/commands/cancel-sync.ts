/**
 * Cancel a sync (from `/sync cancel <app>` or the header's Cancel button) and say what happened. A waiting job
 * never reaches a worker, so its header is marked Cancelled here; a running job's worker terminates it and its
 * reporter updates the header.
 */
import type { WebClient } from '@slack/web-api';
import type { Initiator } from '../../reporting/sync-reporter.js';
import { type SlackMessage, textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { SlackAppDeps } from './command-context.js';
import { headerViewOf } from './header-view.js';

export async function cancelSync(
  deps: SlackAppDeps,
  client: WebClient,
  request: { application: string; by: Initiator; jobId?: string },
): Promise<SlackMessage> {
  const app = `*${escapeMrkdwn(request.application)}*`;
  const result = await deps.queue.cancel(request.application, request.by, request.jobId);
  if (result.cancelled === 'none')
    return textMessage(`Nothing to cancel: no sync of ${app} is running or queued.`);
  if (result.cancelled === 'running') {
    return textMessage(`Cancelling the running sync of ${app}; its thread will show where it stopped.`);
  }
  if (result.jobId) await markHeaderCancelled(deps, client, result.jobId, request.by.userId);
  return textMessage(`Cancelled the queued sync of ${app}; it will not run.`);
}

async function markHeaderCancelled(
  deps: SlackAppDeps,
  client: WebClient,
  jobId: string,
  by: string,
): Promise<void> {
  const job = await deps.queue.jobStatus(jobId);
  if (!job?.target) return;
  const message = syncHeaderBlocks({ ...headerViewOf(deps.catalog, job), state: { kind: 'cancelled', by } });
  await client.chat
    .update({
      channel: job.target.channel,
      ts: job.target.threadTs,
      text: message.text,
      blocks: message.blocks,
    })
    .catch((err: unknown) => deps.logger?.warn({ err, jobId }, 'could not mark the header cancelled'));
}
