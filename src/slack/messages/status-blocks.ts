/**
 * `/sync status [app]`: what is running and queued, one line per job, then what waits for approval, one line per
 * pending request.
 */
import type { PendingApproval } from '../../environments/index.js';
import type { JobStatus } from '../ports.js';
import { type Block, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatClock, mention, ordinal, packLines } from './format.js';
import { waveText } from './sync-header-blocks.js';

const STATE_ICON: Readonly<Record<JobStatus['state'], string>> = {
  active: '🔄',
  waiting: '⏳',
  completed: '✅',
  failed: '❌',
  cancelled: '🚫',
};

/**
 * Jobs and pending approval requests of one app (or all apps when `application` is undefined); `now` in ms for
 * elapsed times.
 */
export function statusBlocks(
  jobs: readonly JobStatus[],
  application: string | undefined,
  now: number,
  pending: readonly PendingApproval[] = [],
): SlackMessage {
  const scope = application ? `*${escapeMrkdwn(application)}*` : 'any Application';
  if (jobs.length === 0 && pending.length === 0) {
    const line = `Nothing is running, queued or waiting for approval for ${scope}.`;
    return { text: plainFallback(line), blocks: [section(line)] };
  }
  const lines = [...jobs.map((j) => jobLine(j, now)), ...pending.map(pendingLine)];
  const blocks: Block[] = packLines(lines, 2900, 49).map(section);
  return { text: plainFallback(lines.join('\n')), blocks };
}

function jobLine(job: JobStatus, now: number): string {
  const parts = [`${STATE_ICON[job.state]} *${escapeMrkdwn(job.application)}*`];
  if (job.state === 'active') {
    parts.push('Running');
    if (job.currentWave) parts.push(waveText(job.currentWave));
    const started = job.operationState?.startedAt;
    if (started) parts.push(formatClock(now - Date.parse(started)));
  } else if (job.state === 'waiting') {
    parts.push(`queued · ${ordinal((job.position ?? 0) + 1)} in line`);
  } else {
    parts.push(job.operationState?.phase ?? job.state);
  }
  parts.push(`requested by ${mention(job.initiator.userId)}`);
  if (job.operation.revision) parts.push(`revision \`${escapeMrkdwn(job.operation.revision)}\``);
  parts.push(`job \`${escapeMrkdwn(job.jobId)}\``);
  return parts.join(' · ');
}

/** `🛡 *guestbook* · waiting for approval (0 of 1) · requested by @pat · expires 10:30 UTC · /sync cancel guestbook withdraws it` */
function pendingLine(request: PendingApproval): string {
  const app = escapeMrkdwn(request.application);
  const what = request.resourceAction
    ? `⚙️ ${escapeMrkdwn(request.resourceAction)} waiting for approval`
    : request.deletion
      ? 'deletion waiting for approval'
      : 'waiting for approval';
  return [
    `🛡 *${app}*`,
    `${what} (${request.approvals} of ${request.requiredApprovals})`,
    `requested by ${mention(request.requester.userId)}`,
    `expires ${new Date(Date.parse(request.expiresAt)).toISOString().slice(11, 16)} UTC`,
    `\`/sync cancel ${app}\` withdraws it`,
  ].join(' · ');
}
