/**
 * The approval message: posted instead of queueing when an environment requires approval, then edited in place
 * as the request is approved (it becomes the sync's header; the thread continues under it), rejected, expires or
 * is invalidated. Buttons are shown only while the request is pending.
 *
 * 🛡 guestbook → production needs approval · requested by @pat
 *    revision 3f9c2e1 (main)
 *    Plan: 2 to update (Deployment/web, ConfigMap/rails-env) · 0 to create · 1 to prune (Service/legacy)
 *    hooks: PreSync Job/db-migrate · PostSync Job/smoke-test
 *    Live diff: 1 to change, 2 hooks
 *    ✏️ Deployment/web: `spec.replicas: 2 → 3`
 *    Approvers: @sre-leads (1 of 1 needed) · expires at 14:30 UTC
 *    [Approve] [Reject] [View diff]
 */

import { displayRevision, type SyncPhase } from '../../domain/index.js';
import {
  APPROVE_ACTION_ID,
  type ApprovalRecord,
  describePrincipals,
  encodeApprovalButtonValue,
  mentionOf,
  type PlanSummary,
  REJECT_ACTION_ID,
  rerunCommandOf,
  VIEW_DIFF_ACTION_ID,
} from '../../environments/index.js';
import { deleteCommandTextOf } from '../commands/header-view.js';
import { actions, type Block, button, context, plainFallback, type SlackMessage, section } from './block.js';
import { deletionPlanView } from './deletion-blocks.js';
import { diffSummaryBlock, liveDiffUnavailableBlock } from './diff-blocks.js';
import { escapeMrkdwn, listNames, mention, truncate } from './format.js';
import { promotionTitle, rollbackTitle } from './sync-header-blocks.js';

const PHASES: SyncPhase[] = ['PreSync', 'Sync', 'PostSync', 'SyncFail'];

/** The approval message for the record's current status. */
export function approvalRequestBlocks(record: ApprovalRecord): SlackMessage {
  if (record.request.resourceAction) return resourceActionApprovalBlocks(record);
  const { request } = record;
  const what = request.deletion
    ? '🗑 Delete '
    : request.rollback
      ? '↩️ Roll back '
      : request.promotion
        ? '⏫ Promote to '
        : '';
  const title = `${statusIcon(record)} ${what}*${escapeMrkdwn(request.application)}* → ${escapeMrkdwn(request.environment)}  ·  ${statusText(record)}`;
  const revision = request.deletion
    ? `requested by ${mention(request.requester.userId)} · \`${escapeMrkdwn(deleteCommandTextOf(request.application, request.deletion.request))}\``
    : request.rollback
      ? `${rollbackTitle(request.rollback)} · requested by ${mention(request.requester.userId)}`
      : `revision \`${escapeMrkdwn(displayRevision(request.revision, request.revisionName))}\` · requested by ${mention(request.requester.userId)}`;
  const breakGlass = request.breakGlass
    ? [
        `🔨 break-glass through freeze "${escapeMrkdwn(request.breakGlass.freeze)}": ${escapeMrkdwn(request.breakGlass.reason)}`,
      ]
    : [];
  breakGlass.unshift(...promotionLines(request));
  const blocks: Block[] = [];
  if (request.deletion) {
    // The waves are shortened to fit; what is kept and the Delete=confirm objects always get sections of their own.
    const head = truncate([title, revision, ...breakGlass].join('\n'), 1500);
    const view = deletionPlanView(request.deletion.plan, head.length + 1);
    blocks.push(section(`${head}\n${view.waves}`));
    if (view.kept) blocks.push(section(view.kept));
    if (view.confirm) blocks.push(section(view.confirm));
  } else {
    blocks.push(
      section(truncate([title, revision, ...planLines(request.plan), ...breakGlass].join('\n'), 3000)),
    );
    if (request.diff) blocks.push(diffSummaryBlock(request.diff));
    else if (request.liveError) blocks.push(liveDiffUnavailableBlock(request.liveError));
  }
  blocks.push(context(truncate(footer(record), 3000)));
  if (record.status === 'pending') {
    const value = encodeApprovalButtonValue({ requestId: request.id, application: request.application });
    blocks.push(
      actions(
        button(APPROVE_ACTION_ID, 'Approve', value, 'primary'),
        button(REJECT_ACTION_ID, 'Reject', value, 'danger'),
        ...(request.diff ? [button(VIEW_DIFF_ACTION_ID, 'View diff', value)] : []),
      ),
    );
  }
  return { text: plainFallback(`${title} ${revision}`), blocks };
}

/**
 * A resource action's approval message: which action, on which object of which Application, what it would write.
 *
 * 🛡 ⚙️ *restart* Deployment/web of *guestbook* → production  ·  needs approval
 *    requested by @pat · `/sync action guestbook restart Deployment/web`
 *    Would: patch Deployment/web
 *    Approvers: @sre-leads (0 of 1 approval) · expires at 14:30 UTC
 *    [Approve] [Reject]
 */
function resourceActionApprovalBlocks(record: ApprovalRecord): SlackMessage {
  const { request } = record;
  const ref = request.resourceAction!;
  const params = Object.entries(ref.params).map(([k, v]) => `${k}=${v}`);
  const title =
    `${statusIcon(record)} ⚙️ *${escapeMrkdwn(ref.action)}*${params.length > 0 ? ` (${escapeMrkdwn(params.join(', '))})` : ''} ` +
    `${escapeMrkdwn(ref.target.replace(/^\//, ''))} of *${escapeMrkdwn(request.application)}* → ${escapeMrkdwn(request.environment)}  ·  ${statusText(record)}`;
  const requested = `requested by ${mention(request.requester.userId)} · \`${escapeMrkdwn(rerunCommandOf(request))}\``;
  const would = ref.plan.map((line) => line.replace(/^would /, ''));
  const plan = `Would: ${would.length > 0 ? escapeMrkdwn(would.join(', ')) : 'nothing'}`;
  const blocks: Block[] = [
    section(truncate([title, requested, plan].join('\n'), 3000)),
    context(truncate(footer(record), 3000)),
  ];
  if (record.status === 'pending') {
    const value = encodeApprovalButtonValue({ requestId: request.id, application: request.application });
    blocks.push(
      actions(
        button(APPROVE_ACTION_ID, 'Approve', value, 'primary'),
        button(REJECT_ACTION_ID, 'Reject', value, 'danger'),
      ),
    );
  }
  return { text: plainFallback(`${title} ${requested}`), blocks };
}

/**
 * What a promotion moves and how it was verified: `⏫ Promotion of `3f9c2e1` from staging · ✅ verified: Healthy in
 * staging for 2 h, PostSync Job/smoke-test passed` (or `⚠️ NOT verified: … Break glass: …`).
 */
function promotionLines(request: ApprovalRecord['request']): string[] {
  const p = request.promotion;
  if (!p) return [];
  const how = p.unverified
    ? `⚠️ NOT verified: ${escapeMrkdwn(p.unverified)}`
    : `✅ verified: ${escapeMrkdwn(p.verified ?? '')}`;
  return [`⏫ ${promotionTitle(p)} (pipeline ${escapeMrkdwn(p.pipeline)}) · ${how}`];
}

/** A header whose request the environment's policy refused; nothing was queued. */
export function approvalRefusedBlocks(application: string, reason: string): SlackMessage {
  const line = `🚫 *${escapeMrkdwn(application)}*  ·  not synced: ${reason}`;
  return { text: plainFallback(line), blocks: [section(truncate(line, 3000))] };
}

/** `Plan: …` and `hooks: …` lines, then one `⚠️` line per plan warning; says so when the live state was not consulted. */
export function planLines(plan: PlanSummary): string[] {
  const names = (list: string[]) => (list.length > 0 ? ` (${escapeMrkdwn(listNames(list, 4))})` : '');
  const parts = plan.liveKnown
    ? [
        `${plan.update.length} to update${names(plan.update)}`,
        `${plan.create.length} to create${names(plan.create)}`,
      ]
    : [`${plan.apply.length} to apply${names(plan.apply)} (live state not checked: create/update unknown)`];
  if (plan.liveKnown) parts.push(`${plan.prune.length} to prune${names(plan.prune)}`);
  // Prunes are live objects: without the live state they cannot be listed — never claim "0 to prune".
  else if (plan.pruneRequested)
    parts.push('--prune is on: what it deletes is not known without the live state');
  if (plan.pruneSkipped.length > 0) parts.push(`${plan.pruneSkipped.length} not pruned without --prune`);
  const hooks = PHASES.flatMap((phase) => {
    const list = plan.hooks[phase] ?? [];
    return list.length > 0 ? [`${phase} ${escapeMrkdwn(listNames(list, 3))}`] : [];
  });
  const warnings = (plan.warnings ?? []).map((w) => `⚠️ ${escapeMrkdwn(w)}`);
  return [
    `Plan: ${parts.join(' · ')}`,
    `hooks: ${hooks.length > 0 ? hooks.join(' · ') : 'none'}`,
    ...warnings,
  ];
}

function footer(record: ApprovalRecord): string {
  const { request } = record;
  const count = `${record.approvals.length} of ${request.requiredApprovals} approval${request.requiredApprovals === 1 ? '' : 's'}`;
  const approvers = `Approvers: ${describePrincipals(request.approvers)} (${count})`;
  if (record.status !== 'pending')
    return record.note ? `${approvers} · ${escapeMrkdwn(record.note)}` : approvers;
  const by =
    record.approvals.length > 0
      ? ` · approved so far by ${record.approvals.map((a) => mentionOf(a.userId)).join(', ')}`
      : '';
  return `${approvers}${by} · expires at ${clock(Date.parse(request.expiresAt))}`;
}

function statusIcon(record: ApprovalRecord): string {
  return { pending: '🛡', approved: '✅', rejected: '🚫', expired: '⌛', invalidated: '♻️', withdrawn: '↩️' }[
    record.status
  ];
}

function statusText(record: ApprovalRecord): string {
  const at = record.decidedAt === undefined ? '' : ` at ${clock(record.decidedAt)}`;
  const rerun = escapeMrkdwn(rerunCommandOf(record.request));
  switch (record.status) {
    case 'pending':
      return 'needs approval';
    case 'approved':
      return `Approved by ${record.approvals.map((a) => mentionOf(a.userId)).join(', ')}${at}`;
    case 'rejected':
      // The requester's own Reject withdraws the request (authorizeDecision allows it); say so.
      if (record.decidedBy !== undefined && record.decidedBy === record.request.requester.userId) {
        return `Withdrawn by ${mentionOf(record.decidedBy)}${at}`;
      }
      return `Rejected by ${record.decidedBy ? mentionOf(record.decidedBy) : 'an approver'}${at}`;
    case 'expired':
      return `Expired — run ${rerun} again`;
    case 'invalidated':
      return `Invalidated — run ${rerun} again`;
    case 'withdrawn':
      return `Withdrawn by ${record.decidedBy ? mentionOf(record.decidedBy) : 'the requester'}${at}${record.note ? `: ${escapeMrkdwn(record.note)}` : ''}`;
  }
}

/** `14:03 UTC` */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}
