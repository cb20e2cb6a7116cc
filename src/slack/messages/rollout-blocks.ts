/**
 * The lines of an ApplicationSet's rollout (`/sync <appset>`): the thread's header (the steps, what each updates at
 * once, which Applications wait for approval, which no step selects), a line per step as it begins, the placeholder
 * an Application's approval request replaces, and the final summary. Each Application's own line is its sync's
 * (app-of-apps-blocks.ts childLineBlocks), as for App of Apps children.
 */
import type { RolloutSummary } from '../../app-of-apps/index.js';
import type { RolloutChainStep } from '../../queue/index.js';
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, listNames, truncate } from './format.js';

const names = (list: readonly string[]) => listNames(list.map(escapeMrkdwn), 10);

function pace(step: Pick<RolloutChainStep, 'applications' | 'atOnce' | 'maxUpdate'>): string {
  if (step.maxUpdate === undefined) return 'all at once';
  if (step.atOnce === 0) return `maxUpdate ${step.maxUpdate}: none updated`;
  return `maxUpdate ${step.maxUpdate}: ${step.atOnce} at a time`;
}

/** The rollout thread's header. */
export function rolloutHeaderBlocks(input: {
  applicationSet: string;
  userId: string;
  steps: readonly RolloutChainStep[];
  approval: readonly string[];
  unassigned: readonly string[];
}): SlackMessage {
  const lines = [
    `🚀 *Rollout of ApplicationSet ${escapeMrkdwn(input.applicationSet)}* by <@${input.userId}>`,
  ];
  input.steps.forEach((step, i) => {
    const apps = step.applications.length === 0 ? '(no Application)' : names(step.applications);
    const approval = step.applications.filter((a) => input.approval.includes(a));
    const needs = approval.length > 0 ? ` · approval: ${names(approval)}` : '';
    lines.push(`Step ${i + 1}: ${apps} (${pace(step)})${needs}`);
  });
  if (input.unassigned.length > 0) {
    lines.push(`In no step, not synced by the rollout (as in Argo CD): ${names(input.unassigned)}`);
  }
  return textMessage(lines.join('\n'));
}

/** `Step 2 of 3: qa-guestbook, prod-guestbook (maxUpdate 1: 1 at a time)`. */
export function stepStartingBlocks(step: {
  number: number;
  of: number;
  applications: string[];
  atOnce: number;
  maxUpdate?: number | string;
  approval: string[];
}): SlackMessage {
  const needs = step.approval.length > 0 ? ` · waiting for approval: ${names(step.approval)}` : '';
  return textMessage(
    `▶️ Step ${step.number} of ${step.of}: ${names(step.applications)} (${pace(step)})${needs}`,
  );
}

/** Replaced by the approval request of `application`. */
export function approvalPlaceholderBlocks(application: string, step: number): SlackMessage {
  return textMessage(`⏳ Step ${step}: *${escapeMrkdwn(application)}* needs approval…`);
}

/** The end of the rollout. */
export function rolloutSummaryBlocks(summary: RolloutSummary): SlackMessage {
  const { healthy, total, stopped } = summary;
  const set = escapeMrkdwn(summary.applicationSet);
  const parts = stopped
    ? [
        `❌ Rollout of ${set} stopped at step ${stopped.step}: ${escapeMrkdwn(truncate(stopped.message, 1000))}${byOf(stopped.by)}`,
        `${healthy.length}/${total} synced and Healthy`,
      ]
    : [`✅ Rollout of ${set}: ${healthy.length}/${total} synced and Healthy`];
  if (summary.notSynced.length > 0) parts.push(`not synced: ${names(summary.notSynced)}`);
  if (summary.unassigned.length > 0) parts.push(`in no step: ${names(summary.unassigned)}`);
  return textMessage(parts.join(' · '));
}

/** ` by @user` (a mention) after the reason of a stop that someone decided (a rejected or withdrawn approval). */
function byOf(userId: string | undefined): string {
  return userId && /^[UW][A-Z0-9]+$/.test(userId) ? ` by <@${userId}>` : '';
}
