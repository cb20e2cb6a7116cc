/**
 * `/sync delete <app>` messages: the plan (ephemeral confirmation with Delete/Cancel, and the approval message's
 * plan), one thread reply per deleted wave (`🗑 wave 2 · 3 resources deleted`), what was kept and why, and the
 * final reply (`🗑 Deleted guestbook · …` or `❌ Deleting guestbook failed · …`).
 */
import type { DeletionPlan } from '../../apps/application-deletion.js';
import type { ResourceKey, SyncEvent } from '../../domain/index.js';
import {
  actions,
  type Block,
  button,
  context,
  plainFallback,
  type SlackMessage,
  section,
  textMessage,
} from './block.js';
import { escapeMrkdwn, formatDuration, listNames, plural, taskName, truncate } from './format.js';

/** Action ids of the confirmation's buttons; the value is `encodeDeletionButtonValue`. */
export const DELETE_CONFIRM_ACTION_ID = 'wavesync_delete_confirm';
export const DELETE_CANCEL_ACTION_ID = 'wavesync_delete_cancel';

const KEPT_WHY: Readonly<Record<string, string>> = {
  orphaned: 'orphaned: no resources finalizer, so deleting the Application leaves its resources',
  CustomResourceDefinition: 'CustomResourceDefinitions are never deleted with an Application',
  'Delete=false': '`argocd.argoproj.io/sync-options: Delete=false`',
  'helm.sh/resource-policy: keep': '`helm.sh/resource-policy: keep`',
  'CreateNamespace=true': 'the destination namespace `CreateNamespace=true` created (Argo CD leaves it too)',
  'the Application itself': 'the Application object itself is removed last',
};

const names = (keys: readonly Pick<ResourceKey, 'kind' | 'name'>[], max = 8) =>
  listNames(
    keys.map((k) => escapeMrkdwn(taskName(k))),
    max,
  );

/** The plan's lines (mrkdwn): what goes per wave, what stays and why, and the `Delete=confirm` objects. */
export function deletionPlanLines(plan: DeletionPlan): string[] {
  const lines: string[] = [];
  if (plan.cascade === 'orphan') {
    lines.push(
      'Only the Application goes: it has no resources finalizer (`--cascade=orphan`), so its resources stay.',
    );
  } else {
    lines.push(
      `Cascade: *${plan.cascade}* (${plan.propagationPolicy ?? (plan.cascade === 'background' ? 'Background' : 'Foreground')} propagation), highest sync wave first, then the Application.`,
    );
    if (plan.hooks.preDelete.length > 0)
      lines.push(`🪝 PreDelete hooks first: ${names(plan.hooks.preDelete)}`);
    if (plan.waves.length === 0) lines.push('No tracked resources are left to delete.');
    for (const wave of plan.waves) {
      lines.push(
        `🗑 wave ${wave.wave} · ${plural(wave.resources.length, 'resource')}: ${names(wave.resources)}`,
      );
    }
    if (plan.hooks.postDelete.length > 0)
      lines.push(`🪝 PostDelete hooks last: ${names(plan.hooks.postDelete)}`);
  }
  const byReason = new Map<string, ResourceKey[]>();
  for (const k of plan.kept) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k.key]);
  for (const [reason, keys] of byReason) {
    lines.push(`📌 kept · ${names(keys)} — ${KEPT_WHY[reason] ?? escapeMrkdwn(reason)}`);
  }
  if (plan.confirm.length > 0) {
    lines.push(`⚠️ \`Delete=confirm\`: ${names(plan.confirm, 20)} — confirming this deletes them too.`);
  }
  return lines;
}

/** The requester's ephemeral confirmation: the plan, and Delete / Cancel. */
export function deletionConfirmationBlocks(plan: DeletionPlan, buttonValue: string): SlackMessage {
  const head = `🗑 *Delete ${escapeMrkdwn(plan.application)}?* This cannot be undone.`;
  const body = truncate([head, ...deletionPlanLines(plan)].join('\n'), 2900);
  const blocks: Block[] = [
    section(body),
    context(
      `The Application stays in the wavesync.yaml registry (it comes from git). Approval rules of its environment apply.`,
    ),
    actions(
      button(DELETE_CONFIRM_ACTION_ID, 'Delete', buttonValue, 'danger'),
      button(DELETE_CANCEL_ACTION_ID, 'Cancel', buttonValue),
    ),
  ];
  return { text: plainFallback(head), blocks };
}

type ResourcesDeleted = Extract<SyncEvent, { type: 'ResourcesDeleted' }>;
type ResourcesKept = Extract<SyncEvent, { type: 'ResourcesKept' }>;
type DeletionHookFinished = Extract<SyncEvent, { type: 'DeletionHookFinished' }>;

/** `🪝 PreDelete hook Job/backup Succeeded` or `✗ PostDelete hook Job/notify Failed: <message>`. */
export function deletionHookBlocks(event: DeletionHookFinished): SlackMessage {
  const head = `${event.hookType} hook ${escapeMrkdwn(taskName(event.task))}`;
  return event.hookPhase === 'Succeeded'
    ? textMessage(`🪝 ${head} Succeeded`)
    : textMessage(`✗ ${head} Failed: ${escapeMrkdwn(truncate(event.message, 2000))}`);
}

/** `🗑 wave 2 · 3 resources deleted: Deployment/web, … (Foreground)`. */
export function resourcesDeletedBlocks(event: ResourcesDeleted): SlackMessage {
  return textMessage(
    `🗑 wave ${event.syncWave} · ${plural(event.resources.length, 'resource')} deleted: ${names(event.resources)} (${event.propagationPolicy})`,
  );
}

/** `📌 kept · ConfigMap/settings — Delete=false`, one line per reason. */
export function resourcesKeptBlocks(event: ResourcesKept): SlackMessage {
  const byReason = new Map<string, ResourceKey[]>();
  for (const k of event.kept) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k.task]);
  const lines = [...byReason].map(
    ([reason, keys]) => `📌 kept · ${names(keys)} — ${KEPT_WHY[reason] ?? escapeMrkdwn(reason)}`,
  );
  return textMessage(truncate(lines.join('\n'), 2900));
}

/** The final reply of a deletion. */
export function deletionSummaryBlocks(summary: {
  application: string;
  phase: string;
  message: string;
  durationMs: number;
}): SlackMessage {
  const app = escapeMrkdwn(summary.application);
  const line =
    summary.phase === 'Succeeded'
      ? `🗑 Deleted ${app} in ${formatDuration(summary.durationMs)} · ${escapeMrkdwn(truncate(summary.message, 1500))}`
      : `❌ Deleting ${app} ${summary.phase} after ${formatDuration(summary.durationMs)} · ${escapeMrkdwn(truncate(summary.message, 1500))}`;
  return { text: plainFallback(line), blocks: [section(line)] };
}
